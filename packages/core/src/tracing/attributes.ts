/** Span attribute keys of the wire contract (section 2). One place, so every package agrees. */
export const ObsAttributes = {
  OBSERVATION_TYPE: 'obs.observation.type',
  OBSERVATION_INPUT: 'obs.observation.input',
  OBSERVATION_OUTPUT: 'obs.observation.output',
  OBSERVATION_METADATA: 'obs.observation.metadata',
  OBSERVATION_LEVEL: 'obs.observation.level',
  OBSERVATION_STATUS_MESSAGE: 'obs.observation.status_message',
  OBSERVATION_MODEL: 'obs.observation.model.name',
  OBSERVATION_MODEL_PARAMETERS: 'obs.observation.model.parameters',
  OBSERVATION_USAGE_DETAILS: 'obs.observation.usage_details',
  OBSERVATION_COST_DETAILS: 'obs.observation.cost_details',
  OBSERVATION_COMPLETION_START_TIME: 'obs.observation.completion_start_time',
  OBSERVATION_PROMPT_NAME: 'obs.observation.prompt.name',
  OBSERVATION_PROMPT_VERSION: 'obs.observation.prompt.version',
  VERSION: 'obs.version',
  ENVIRONMENT: 'obs.environment',
  RELEASE: 'obs.release',
  TRACE_NAME: 'obs.trace.name',
  TRACE_TAGS: 'obs.trace.tags',
  TRACE_METADATA: 'obs.trace.metadata',
  TRACE_PUBLIC: 'obs.trace.public',
  TRACE_USER_ID: 'user.id',
  TRACE_SESSION_ID: 'session.id',
  EXPERIMENT_ID: 'obs.experiment.id',
  EXPERIMENT_NAME: 'obs.experiment.name',
  EXPERIMENT_DESCRIPTION: 'obs.experiment.description',
  EXPERIMENT_METADATA: 'obs.experiment.metadata',
  EXPERIMENT_DATASET_ID: 'obs.experiment.dataset.id',
  EXPERIMENT_ITEM_ID: 'obs.experiment.item.id',
  EXPERIMENT_ITEM_EXPECTED_OUTPUT: 'obs.experiment.item.expected_output',
  EXPERIMENT_ITEM_METADATA: 'obs.experiment.item.metadata',
  EXPERIMENT_ITEM_ROOT_OBSERVATION_ID: 'obs.experiment.item.root_observation_id',
  EXPERIMENT_ITEM_VERSION: 'obs.experiment.item.version',
} as const;

/** The ten observation types (wire contract 2.1). */
export const OBSERVATION_TYPES = [
  'span',
  'generation',
  'event',
  'agent',
  'tool',
  'chain',
  'retriever',
  'evaluator',
  'embedding',
  'guardrail',
] as const;

/** What kind of work an observation stands for. */
export type ObservationType = (typeof OBSERVATION_TYPES)[number];

/** Severity of an observation. */
export type ObservationLevel = 'DEBUG' | 'DEFAULT' | 'WARNING' | 'ERROR';

/** Attribute keys whose values `mask` applies to (flattened metadata keys start with these). */
export const MASKED_KEY_PREFIXES = [
  ObsAttributes.OBSERVATION_INPUT,
  ObsAttributes.OBSERVATION_OUTPUT,
  ObsAttributes.OBSERVATION_METADATA,
  ObsAttributes.TRACE_METADATA,
] as const;
