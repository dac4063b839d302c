// Public face of the storm's Artillery way (DESIGN.md "A callback storm", "Scale"): the same plan
// exported for Artillery (`storm --export artillery DIR`: records seeded, a script, the payload
// of planned deliveries, a self-contained processor) and judged after it ran (`storm --judge
// DIR`: the records, the processor's delivery logs, Artillery's report). The kit never imports
// Artillery.
export { exportArtillery, type ArtilleryExport, type ArtilleryExportOptions } from './export.ts';
export { judgeArtillery, readExport, type ArtilleryJudgeOptions, type ArtilleryJudgement } from './judge.ts';
export { judgeOnReport } from './report-only.ts';
export { readDeliveryLogs, DeliveryLogError, type DeliveryLogs } from './deliveries.ts';
export { readArtilleryReport, ArtilleryReportError, type ArtilleryReport } from './report.ts';
export { FILES as ARTILLERY_FILES, type ExportedPlan } from './script.ts';
export {
  TOKEN_ENV, LOG_DIR_ENV, LOG_FIELDS, LOG_FORMAT, METRICS, PAYLOAD_FIELDS, stormProcessor, processorSource, loadProcessorSource,
  type ProcessorSettings, type LoadedProcessor,
} from './processor.ts';
