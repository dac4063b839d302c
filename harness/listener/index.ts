// Public face of the callback listener (service side of DESIGN.md "Driving targets").
export {
  startListener, SAFE_TAG, MAX_DELIVERIES_PER_TAG,
  type ListenerOptions, type RunningListener, type WaitOptions,
} from './listener.ts';
export { toDelivery, matches, type ListenerDelivery, type DeliveryFilter } from './delivery.ts';
export { listenerTls, type ListenerTls } from './tls.ts';
