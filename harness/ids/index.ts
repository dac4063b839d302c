// Public face of transaction id shapes (DESIGN.md `transactionIds`): the template, its checks,
// ids made in it, and the matcher a receiver that accepts only its own ids uses.
export {
  DEFAULT_ID_TEMPLATE, HARNESS_ID_MAX_LENGTH, UUID_LENGTH, idCarrying, idLength, matchesShape, parseIdTemplate, renderId, shapeProblems,
  type IdRequest, type ShapeProblem, type TemplatePart, type TransactionIdShape,
} from './shape.ts';
export { uuidFrom } from './uuid.ts';
export { transactionIds, shapedIds, seededRandom, randomSeed, type ShapedIds, type TransactionIdGenerator } from './run-ids.ts';
