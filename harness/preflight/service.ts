// The service's preflight: one correctly signed collect request for a whitelisted number, its
// callback arriving at the listener, and a correctly signed status query for it (§4.2). It is
// the positive control of the negative service cases (a rejection proves nothing when the valid
// request is rejected too; "never called" proves nothing when no callback ever arrives; a refused
// status query proves nothing when a correctly signed one is refused too) and names what it saw
// when it does not hold.
import {
  askStatus, describeAnswer, firstCallback, formNote, notReadReason, probeEndpointAbsent, serviceCase, serviceStatusEndpoint, STATUS_NOT_READ,
  type ConformanceCase,
} from '../cases/index.ts';
import type { ResolvedServiceTarget } from '../targets/index.ts';
import type { Control, Finding, Preflight } from './model.ts';

const WHAT_ACCEPTED = 'the preflight\'s correctly signed collect request';
const WHAT_DELIVERED = 'the preflight\'s accepted transaction and its callback';
const WHAT_STATUS = 'the preflight\'s correctly signed status query for its accepted transaction';

export function servicePreflightCase(out: { preflight?: Preflight }, options: { statusQuery: boolean }): ConformanceCase<ResolvedServiceTarget> {
  return serviceCase({
    id: 'preflight.service', title: 'a valid collect is accepted, called back, its status answered', specRef: '§4, §6', level: 'MUST', needs: [],
    async check(s) {
      const fields = s.fields();
      const answer = await s.send({ fields }, { label: 'preflight: correctly signed collect' });
      const findings: Finding[] = [];
      const notes: string[] = [];
      let accepted: Control;
      let delivered: Control;
      const queried = options.statusQuery && serviceStatusEndpoint(s.target) !== undefined;
      let status: Control = {
        state: 'not-run', what: WHAT_STATUS,
        observed: options.statusQuery ? 'the target file says "status": false: no status endpoint to query' : 'no case of this run queries the status endpoint',
      };
      if (answer.judgement !== 'accepted') {
        const observed = `it was ${answer.judgement === 'no-answer' ? 'not answered' : 'rejected'}: ${describeAnswer(answer)}`;
        accepted = { state: 'failed', what: WHAT_ACCEPTED, observed };
        delivered = { state: 'not-run', what: WHAT_DELIVERED, observed: 'no transaction was accepted, so no callback could be awaited' };
        if (queried) status = { state: 'not-run', what: WHAT_STATUS, observed: 'no transaction was accepted, so there was none to query' };
        findings.push({
          id: 'service.valid-collect-rejected',
          summary: `a correctly signed collect request for the whitelisted number ${fields.customer_number} was ${answer.judgement === 'no-answer' ? 'not answered' : 'rejected'} (${describeAnswer(answer)}): likely the target file's credentials (clientId, clientKey, secretKey), source address or customer numbers do not match the service's; no case that needs an accepted request can judge anything`,
          symptom: { kind: 'whole-side' },
          evidence: s.evidence(),
        });
      } else {
        accepted = { state: 'held', what: WHAT_ACCEPTED, observed: `it was accepted: ${describeAnswer(answer)}` };
        const [d] = await firstCallback(s, fields.tag);
        if (d) {
          delivered = { state: 'held', what: WHAT_DELIVERED, observed: `the callback arrived (${d.method})` };
        } else {
          const waited = s.target.timing.callbackTimeoutMs;
          delivered = { state: 'failed', what: WHAT_DELIVERED, observed: `no callback arrived within ${waited} ms` };
          // A refused certificate ends each delivery in the handshake, where no delivery is recorded.
          const [handshake] = s.listener.tlsFailures();
          const likely = handshake !== undefined
            ? `the listener saw ${s.listener.tlsFailures().length} TLS handshake(s) fail (${handshake}): likely the service does not trust the listener's certificate, which a CA this run generated signed (a service that verifies certificates needs that CA, or a listener.publicUrl with a certificate it trusts)`
            : 'likely the service cannot reach that address (listener.publicUrl), or its callbacks take longer';
          findings.push({
            id: 'service.no-callback',
            summary: `a correctly signed collect request was accepted, but no callback reached the harness's listener at ${s.listener.publicUrl} within timing.callbackTimeoutMs (${waited} ms): ${likely}`,
            symptom: { kind: 'stated', cause: 'no-callback' },
            evidence: s.evidence(),
          });
        }
        if (queried) {
          const asked = await askStatus(s, fields.transaction_id, { label: 'preflight: correctly signed status query' });
          const absent = asked.reading?.kind === 'status' ? undefined : await probeEndpointAbsent(s, fields.transaction_id, asked);
          if (asked.reading?.kind === 'status') {
            status = { state: 'held', what: WHAT_STATUS, observed: `it was answered ${asked.reading.status}` };
            notes.push(...formNote(asked.reading));
          } else if (absent !== undefined) {
            // Like a version-1 SDK adapter: not judged on status, named once; the preflight rests on collect alone.
            status = { state: 'not-run', what: WHAT_STATUS, observed: absent };
            findings.push({
              id: 'service.status-endpoint-absent',
              summary: absent,
              symptom: { kind: 'stated', cause: 'status-endpoint-absent' },
              evidence: s.evidence(),
            });
            notes.push(`not judged on status: ${absent}`);
          } else {
            const reason = notReadReason(s, asked);
            status = { state: 'failed', what: WHAT_STATUS, observed: reason.slice(STATUS_NOT_READ.length + 2) };
            // Every status query of the run is signed and sent the same way: one cause, not one FAIL after another.
            findings.push({
              id: 'service.status-query-refused',
              summary: `${WHAT_STATUS} got no status: ${status.observed}; every status query of the run likely meets the same, so the service.status cases named here share this one cause`,
              symptom: { kind: 'stated', cause: 'status-not-read' },
              evidence: s.evidence(),
            });
          }
        }
      }
      out.preflight = { side: 'service', controls: { refusal: accepted, 'no-delivery': delivered, 'status-refusal': status }, findings };
      // The line states what was seen; the cause it suggests is named once, as a shared cause. The
      // status query's shape is a position the spec does not state: it never fails the preflight
      // (its control, failed, still takes the status cases' refusals back; harness/positions).
      const unheld = [accepted, delivered].find((c) => c.state !== 'held');
      if (status.state === 'failed') notes.push(`${WHAT_STATUS}: ${status.observed} (the status cases name it: service.status-query-refused; the query's shape is the suite's position, so it does not fail the preflight)`);
      return unheld ? s.fail(`${unheld.what}: ${unheld.observed}`) : s.pass(notes.length > 0 ? { notes } : undefined);
    },
  });
}
