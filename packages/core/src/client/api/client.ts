import { Transport, type TransportConfig } from './core/transport.js';
import { AnnotationQueues } from './resources/annotationQueues.js';
import { BlobStorageIntegrations } from './resources/blobStorageIntegrations.js';
import { Comments } from './resources/comments.js';
import { DatasetItems } from './resources/datasetItems.js';
import { Datasets } from './resources/datasets.js';
import { EvaluationRules } from './resources/evaluationRules.js';
import { Evaluators } from './resources/evaluators.js';
import { Experiments } from './resources/experiments.js';
import { Health } from './resources/health.js';
import { LlmConnections } from './resources/llmConnections.js';
import { Media } from './resources/media.js';
import { Metrics } from './resources/metrics.js';
import { Models } from './resources/models.js';
import { Observations } from './resources/observations.js';
import { Organizations } from './resources/organizations.js';
import { Projects } from './resources/projects.js';
import { Prompts, PromptVersion } from './resources/prompts.js';
import { Scim } from './resources/scim.js';
import { ScoreConfigs } from './resources/scoreConfigs.js';
import { Scores } from './resources/scores.js';
import { Trace } from './resources/trace.js';
import { Unstable } from './resources/unstable.js';

/**
 * The generated-style public API client: `api.<namespace>.<method>(...)`, one method per
 * endpoint. Removed in major 6 and absent here: `legacy`, `scoresV3`, `sessions`,
 * `datasetRunItems`, `trace.get/list`, `datasets.getRun/getRuns/deleteRun`, `scores.getById`.
 */
export class ObsApiClient {
  readonly annotationQueues: AnnotationQueues;
  readonly blobStorageIntegrations: BlobStorageIntegrations;
  readonly comments: Comments;
  readonly datasetItems: DatasetItems;
  readonly datasets: Datasets;
  readonly evaluationRules: EvaluationRules;
  readonly evaluators: Evaluators;
  readonly experiments: Experiments;
  readonly health: Health;
  readonly llmConnections: LlmConnections;
  readonly media: Media;
  readonly metrics: Metrics;
  readonly models: Models;
  readonly observations: Observations;
  readonly organizations: Organizations;
  readonly projects: Projects;
  readonly prompts: Prompts;
  readonly promptVersion: PromptVersion;
  readonly scim: Scim;
  readonly scoreConfigs: ScoreConfigs;
  readonly scores: Scores;
  readonly trace: Trace;
  readonly unstable: Unstable;

  constructor(config: TransportConfig) {
    const transport = new Transport(config);
    this.annotationQueues = new AnnotationQueues(transport);
    this.blobStorageIntegrations = new BlobStorageIntegrations(transport);
    this.comments = new Comments(transport);
    this.datasetItems = new DatasetItems(transport);
    this.datasets = new Datasets(transport);
    this.evaluationRules = new EvaluationRules(transport);
    this.evaluators = new Evaluators(transport);
    this.experiments = new Experiments(transport);
    this.health = new Health(transport);
    this.llmConnections = new LlmConnections(transport);
    this.media = new Media(transport);
    this.metrics = new Metrics(transport);
    this.models = new Models(transport);
    this.observations = new Observations(transport);
    this.organizations = new Organizations(transport);
    this.projects = new Projects(transport);
    this.prompts = new Prompts(transport);
    this.promptVersion = new PromptVersion(transport);
    this.scim = new Scim(transport);
    this.scoreConfigs = new ScoreConfigs(transport);
    this.scores = new Scores(transport);
    this.trace = new Trace(transport);
    this.unstable = new Unstable(transport);
  }
}
