/**
 * Type test (compiled by test/types/types.test.ts, never run): the 41 methods of contract 4.2
 * take `(pathParams..., {}, requestOptions?)`, and `requestOptions` in the old position
 * (directly after the path parameters) is a compile error. An unused `@ts-expect-error`
 * is itself an error, so a signature that starts accepting the old form fails the test.
 */
import type { ObsClient, RequestOptions } from '../../src/client/index.js';

export function placeholderSignatures(client: ObsClient, ro: RequestOptions): void {
  const { api } = client;

  // annotationQueues.getQueue
  void api.annotationQueues.getQueue('p0');
  void api.annotationQueues.getQueue('p0', {});
  void api.annotationQueues.getQueue('p0', {}, ro);
  void api.annotationQueues.getQueue('p0', {}, { timeoutInSeconds: 5, maxRetries: 2 });
  // @ts-expect-error requestOptions in the old position
  void api.annotationQueues.getQueue('p0', ro);
  // @ts-expect-error an options literal in the old position
  void api.annotationQueues.getQueue('p0', { timeoutInSeconds: 5 });
  // annotationQueues.getQueueItem
  void api.annotationQueues.getQueueItem('p0', 'p1');
  void api.annotationQueues.getQueueItem('p0', 'p1', {});
  void api.annotationQueues.getQueueItem('p0', 'p1', {}, ro);
  void api.annotationQueues.getQueueItem('p0', 'p1', {}, { timeoutInSeconds: 5, maxRetries: 2 });
  // @ts-expect-error requestOptions in the old position
  void api.annotationQueues.getQueueItem('p0', 'p1', ro);
  // @ts-expect-error an options literal in the old position
  void api.annotationQueues.getQueueItem('p0', 'p1', { timeoutInSeconds: 5 });
  // annotationQueues.deleteQueueItem
  void api.annotationQueues.deleteQueueItem('p0', 'p1');
  void api.annotationQueues.deleteQueueItem('p0', 'p1', {});
  void api.annotationQueues.deleteQueueItem('p0', 'p1', {}, ro);
  void api.annotationQueues.deleteQueueItem('p0', 'p1', {}, { timeoutInSeconds: 5, maxRetries: 2 });
  // @ts-expect-error requestOptions in the old position
  void api.annotationQueues.deleteQueueItem('p0', 'p1', ro);
  // @ts-expect-error an options literal in the old position
  void api.annotationQueues.deleteQueueItem('p0', 'p1', { timeoutInSeconds: 5 });
  // blobStorageIntegrations.getBlobStorageIntegrations
  void api.blobStorageIntegrations.getBlobStorageIntegrations();
  void api.blobStorageIntegrations.getBlobStorageIntegrations({});
  void api.blobStorageIntegrations.getBlobStorageIntegrations({}, ro);
  void api.blobStorageIntegrations.getBlobStorageIntegrations({}, { timeoutInSeconds: 5, maxRetries: 2 });
  // @ts-expect-error requestOptions in the old position
  void api.blobStorageIntegrations.getBlobStorageIntegrations(ro);
  // @ts-expect-error an options literal in the old position
  void api.blobStorageIntegrations.getBlobStorageIntegrations({ timeoutInSeconds: 5 });
  // blobStorageIntegrations.getBlobStorageIntegrationStatus
  void api.blobStorageIntegrations.getBlobStorageIntegrationStatus('p0');
  void api.blobStorageIntegrations.getBlobStorageIntegrationStatus('p0', {});
  void api.blobStorageIntegrations.getBlobStorageIntegrationStatus('p0', {}, ro);
  void api.blobStorageIntegrations.getBlobStorageIntegrationStatus('p0', {}, { timeoutInSeconds: 5, maxRetries: 2 });
  // @ts-expect-error requestOptions in the old position
  void api.blobStorageIntegrations.getBlobStorageIntegrationStatus('p0', ro);
  // @ts-expect-error an options literal in the old position
  void api.blobStorageIntegrations.getBlobStorageIntegrationStatus('p0', { timeoutInSeconds: 5 });
  // blobStorageIntegrations.deleteBlobStorageIntegration
  void api.blobStorageIntegrations.deleteBlobStorageIntegration('p0');
  void api.blobStorageIntegrations.deleteBlobStorageIntegration('p0', {});
  void api.blobStorageIntegrations.deleteBlobStorageIntegration('p0', {}, ro);
  void api.blobStorageIntegrations.deleteBlobStorageIntegration('p0', {}, { timeoutInSeconds: 5, maxRetries: 2 });
  // @ts-expect-error requestOptions in the old position
  void api.blobStorageIntegrations.deleteBlobStorageIntegration('p0', ro);
  // @ts-expect-error an options literal in the old position
  void api.blobStorageIntegrations.deleteBlobStorageIntegration('p0', { timeoutInSeconds: 5 });
  // comments.getById
  void api.comments.getById('p0');
  void api.comments.getById('p0', {});
  void api.comments.getById('p0', {}, ro);
  void api.comments.getById('p0', {}, { timeoutInSeconds: 5, maxRetries: 2 });
  // @ts-expect-error requestOptions in the old position
  void api.comments.getById('p0', ro);
  // @ts-expect-error an options literal in the old position
  void api.comments.getById('p0', { timeoutInSeconds: 5 });
  // datasetItems.get
  void api.datasetItems.get('p0');
  void api.datasetItems.get('p0', {});
  void api.datasetItems.get('p0', {}, ro);
  void api.datasetItems.get('p0', {}, { timeoutInSeconds: 5, maxRetries: 2 });
  // @ts-expect-error requestOptions in the old position
  void api.datasetItems.get('p0', ro);
  // @ts-expect-error an options literal in the old position
  void api.datasetItems.get('p0', { timeoutInSeconds: 5 });
  // datasetItems.delete
  void api.datasetItems.delete('p0');
  void api.datasetItems.delete('p0', {});
  void api.datasetItems.delete('p0', {}, ro);
  void api.datasetItems.delete('p0', {}, { timeoutInSeconds: 5, maxRetries: 2 });
  // @ts-expect-error requestOptions in the old position
  void api.datasetItems.delete('p0', ro);
  // @ts-expect-error an options literal in the old position
  void api.datasetItems.delete('p0', { timeoutInSeconds: 5 });
  // datasets.get
  void api.datasets.get('p0');
  void api.datasets.get('p0', {});
  void api.datasets.get('p0', {}, ro);
  void api.datasets.get('p0', {}, { timeoutInSeconds: 5, maxRetries: 2 });
  // @ts-expect-error requestOptions in the old position
  void api.datasets.get('p0', ro);
  // @ts-expect-error an options literal in the old position
  void api.datasets.get('p0', { timeoutInSeconds: 5 });
  // evaluationRules.get
  void api.evaluationRules.get('p0');
  void api.evaluationRules.get('p0', {});
  void api.evaluationRules.get('p0', {}, ro);
  void api.evaluationRules.get('p0', {}, { timeoutInSeconds: 5, maxRetries: 2 });
  // @ts-expect-error requestOptions in the old position
  void api.evaluationRules.get('p0', ro);
  // @ts-expect-error an options literal in the old position
  void api.evaluationRules.get('p0', { timeoutInSeconds: 5 });
  // evaluationRules.delete
  void api.evaluationRules.delete('p0');
  void api.evaluationRules.delete('p0', {});
  void api.evaluationRules.delete('p0', {}, ro);
  void api.evaluationRules.delete('p0', {}, { timeoutInSeconds: 5, maxRetries: 2 });
  // @ts-expect-error requestOptions in the old position
  void api.evaluationRules.delete('p0', ro);
  // @ts-expect-error an options literal in the old position
  void api.evaluationRules.delete('p0', { timeoutInSeconds: 5 });
  // evaluators.get
  void api.evaluators.get('p0');
  void api.evaluators.get('p0', {});
  void api.evaluators.get('p0', {}, ro);
  void api.evaluators.get('p0', {}, { timeoutInSeconds: 5, maxRetries: 2 });
  // @ts-expect-error requestOptions in the old position
  void api.evaluators.get('p0', ro);
  // @ts-expect-error an options literal in the old position
  void api.evaluators.get('p0', { timeoutInSeconds: 5 });
  // evaluators.delete
  void api.evaluators.delete('p0');
  void api.evaluators.delete('p0', {});
  void api.evaluators.delete('p0', {}, ro);
  void api.evaluators.delete('p0', {}, { timeoutInSeconds: 5, maxRetries: 2 });
  // @ts-expect-error requestOptions in the old position
  void api.evaluators.delete('p0', ro);
  // @ts-expect-error an options literal in the old position
  void api.evaluators.delete('p0', { timeoutInSeconds: 5 });
  // health.health
  void api.health.health();
  void api.health.health({});
  void api.health.health({}, ro);
  void api.health.health({}, { timeoutInSeconds: 5, maxRetries: 2 });
  // @ts-expect-error requestOptions in the old position
  void api.health.health(ro);
  // @ts-expect-error an options literal in the old position
  void api.health.health({ timeoutInSeconds: 5 });
  // llmConnections.delete
  void api.llmConnections.delete('p0');
  void api.llmConnections.delete('p0', {});
  void api.llmConnections.delete('p0', {}, ro);
  void api.llmConnections.delete('p0', {}, { timeoutInSeconds: 5, maxRetries: 2 });
  // @ts-expect-error requestOptions in the old position
  void api.llmConnections.delete('p0', ro);
  // @ts-expect-error an options literal in the old position
  void api.llmConnections.delete('p0', { timeoutInSeconds: 5 });
  // media.get
  void api.media.get('p0');
  void api.media.get('p0', {});
  void api.media.get('p0', {}, ro);
  void api.media.get('p0', {}, { timeoutInSeconds: 5, maxRetries: 2 });
  // @ts-expect-error requestOptions in the old position
  void api.media.get('p0', ro);
  // @ts-expect-error an options literal in the old position
  void api.media.get('p0', { timeoutInSeconds: 5 });
  // models.get
  void api.models.get('p0');
  void api.models.get('p0', {});
  void api.models.get('p0', {}, ro);
  void api.models.get('p0', {}, { timeoutInSeconds: 5, maxRetries: 2 });
  // @ts-expect-error requestOptions in the old position
  void api.models.get('p0', ro);
  // @ts-expect-error an options literal in the old position
  void api.models.get('p0', { timeoutInSeconds: 5 });
  // models.delete
  void api.models.delete('p0');
  void api.models.delete('p0', {});
  void api.models.delete('p0', {}, ro);
  void api.models.delete('p0', {}, { timeoutInSeconds: 5, maxRetries: 2 });
  // @ts-expect-error requestOptions in the old position
  void api.models.delete('p0', ro);
  // @ts-expect-error an options literal in the old position
  void api.models.delete('p0', { timeoutInSeconds: 5 });
  // organizations.getOrganizationMemberships
  void api.organizations.getOrganizationMemberships();
  void api.organizations.getOrganizationMemberships({});
  void api.organizations.getOrganizationMemberships({}, ro);
  void api.organizations.getOrganizationMemberships({}, { timeoutInSeconds: 5, maxRetries: 2 });
  // @ts-expect-error requestOptions in the old position
  void api.organizations.getOrganizationMemberships(ro);
  // @ts-expect-error an options literal in the old position
  void api.organizations.getOrganizationMemberships({ timeoutInSeconds: 5 });
  // organizations.getProjectMemberships
  void api.organizations.getProjectMemberships('p0');
  void api.organizations.getProjectMemberships('p0', {});
  void api.organizations.getProjectMemberships('p0', {}, ro);
  void api.organizations.getProjectMemberships('p0', {}, { timeoutInSeconds: 5, maxRetries: 2 });
  // @ts-expect-error requestOptions in the old position
  void api.organizations.getProjectMemberships('p0', ro);
  // @ts-expect-error an options literal in the old position
  void api.organizations.getProjectMemberships('p0', { timeoutInSeconds: 5 });
  // organizations.getOrganizationProjects
  void api.organizations.getOrganizationProjects();
  void api.organizations.getOrganizationProjects({});
  void api.organizations.getOrganizationProjects({}, ro);
  void api.organizations.getOrganizationProjects({}, { timeoutInSeconds: 5, maxRetries: 2 });
  // @ts-expect-error requestOptions in the old position
  void api.organizations.getOrganizationProjects(ro);
  // @ts-expect-error an options literal in the old position
  void api.organizations.getOrganizationProjects({ timeoutInSeconds: 5 });
  // organizations.getOrganizationApiKeys
  void api.organizations.getOrganizationApiKeys();
  void api.organizations.getOrganizationApiKeys({});
  void api.organizations.getOrganizationApiKeys({}, ro);
  void api.organizations.getOrganizationApiKeys({}, { timeoutInSeconds: 5, maxRetries: 2 });
  // @ts-expect-error requestOptions in the old position
  void api.organizations.getOrganizationApiKeys(ro);
  // @ts-expect-error an options literal in the old position
  void api.organizations.getOrganizationApiKeys({ timeoutInSeconds: 5 });
  // projects.get
  void api.projects.get();
  void api.projects.get({});
  void api.projects.get({}, ro);
  void api.projects.get({}, { timeoutInSeconds: 5, maxRetries: 2 });
  // @ts-expect-error requestOptions in the old position
  void api.projects.get(ro);
  // @ts-expect-error an options literal in the old position
  void api.projects.get({ timeoutInSeconds: 5 });
  // projects.delete
  void api.projects.delete('p0');
  void api.projects.delete('p0', {});
  void api.projects.delete('p0', {}, ro);
  void api.projects.delete('p0', {}, { timeoutInSeconds: 5, maxRetries: 2 });
  // @ts-expect-error requestOptions in the old position
  void api.projects.delete('p0', ro);
  // @ts-expect-error an options literal in the old position
  void api.projects.delete('p0', { timeoutInSeconds: 5 });
  // projects.getApiKeys
  void api.projects.getApiKeys('p0');
  void api.projects.getApiKeys('p0', {});
  void api.projects.getApiKeys('p0', {}, ro);
  void api.projects.getApiKeys('p0', {}, { timeoutInSeconds: 5, maxRetries: 2 });
  // @ts-expect-error requestOptions in the old position
  void api.projects.getApiKeys('p0', ro);
  // @ts-expect-error an options literal in the old position
  void api.projects.getApiKeys('p0', { timeoutInSeconds: 5 });
  // projects.deleteApiKey
  void api.projects.deleteApiKey('p0', 'p1');
  void api.projects.deleteApiKey('p0', 'p1', {});
  void api.projects.deleteApiKey('p0', 'p1', {}, ro);
  void api.projects.deleteApiKey('p0', 'p1', {}, { timeoutInSeconds: 5, maxRetries: 2 });
  // @ts-expect-error requestOptions in the old position
  void api.projects.deleteApiKey('p0', 'p1', ro);
  // @ts-expect-error an options literal in the old position
  void api.projects.deleteApiKey('p0', 'p1', { timeoutInSeconds: 5 });
  // scim.getServiceProviderConfig
  void api.scim.getServiceProviderConfig();
  void api.scim.getServiceProviderConfig({});
  void api.scim.getServiceProviderConfig({}, ro);
  void api.scim.getServiceProviderConfig({}, { timeoutInSeconds: 5, maxRetries: 2 });
  // @ts-expect-error requestOptions in the old position
  void api.scim.getServiceProviderConfig(ro);
  // @ts-expect-error an options literal in the old position
  void api.scim.getServiceProviderConfig({ timeoutInSeconds: 5 });
  // scim.getResourceTypes
  void api.scim.getResourceTypes();
  void api.scim.getResourceTypes({});
  void api.scim.getResourceTypes({}, ro);
  void api.scim.getResourceTypes({}, { timeoutInSeconds: 5, maxRetries: 2 });
  // @ts-expect-error requestOptions in the old position
  void api.scim.getResourceTypes(ro);
  // @ts-expect-error an options literal in the old position
  void api.scim.getResourceTypes({ timeoutInSeconds: 5 });
  // scim.getSchemas
  void api.scim.getSchemas();
  void api.scim.getSchemas({});
  void api.scim.getSchemas({}, ro);
  void api.scim.getSchemas({}, { timeoutInSeconds: 5, maxRetries: 2 });
  // @ts-expect-error requestOptions in the old position
  void api.scim.getSchemas(ro);
  // @ts-expect-error an options literal in the old position
  void api.scim.getSchemas({ timeoutInSeconds: 5 });
  // scim.getUser
  void api.scim.getUser('p0');
  void api.scim.getUser('p0', {});
  void api.scim.getUser('p0', {}, ro);
  void api.scim.getUser('p0', {}, { timeoutInSeconds: 5, maxRetries: 2 });
  // @ts-expect-error requestOptions in the old position
  void api.scim.getUser('p0', ro);
  // @ts-expect-error an options literal in the old position
  void api.scim.getUser('p0', { timeoutInSeconds: 5 });
  // scim.deleteUser
  void api.scim.deleteUser('p0');
  void api.scim.deleteUser('p0', {});
  void api.scim.deleteUser('p0', {}, ro);
  void api.scim.deleteUser('p0', {}, { timeoutInSeconds: 5, maxRetries: 2 });
  // @ts-expect-error requestOptions in the old position
  void api.scim.deleteUser('p0', ro);
  // @ts-expect-error an options literal in the old position
  void api.scim.deleteUser('p0', { timeoutInSeconds: 5 });
  // scoreConfigs.getById
  void api.scoreConfigs.getById('p0');
  void api.scoreConfigs.getById('p0', {});
  void api.scoreConfigs.getById('p0', {}, ro);
  void api.scoreConfigs.getById('p0', {}, { timeoutInSeconds: 5, maxRetries: 2 });
  // @ts-expect-error requestOptions in the old position
  void api.scoreConfigs.getById('p0', ro);
  // @ts-expect-error an options literal in the old position
  void api.scoreConfigs.getById('p0', { timeoutInSeconds: 5 });
  // scores.delete
  void api.scores.delete('p0');
  void api.scores.delete('p0', {});
  void api.scores.delete('p0', {}, ro);
  void api.scores.delete('p0', {}, { timeoutInSeconds: 5, maxRetries: 2 });
  // @ts-expect-error requestOptions in the old position
  void api.scores.delete('p0', ro);
  // @ts-expect-error an options literal in the old position
  void api.scores.delete('p0', { timeoutInSeconds: 5 });
  // trace.delete
  void api.trace.delete('p0');
  void api.trace.delete('p0', {});
  void api.trace.delete('p0', {}, ro);
  void api.trace.delete('p0', {}, { timeoutInSeconds: 5, maxRetries: 2 });
  // @ts-expect-error requestOptions in the old position
  void api.trace.delete('p0', ro);
  // @ts-expect-error an options literal in the old position
  void api.trace.delete('p0', { timeoutInSeconds: 5 });
  // unstable.dashboardWidgets.get
  void api.unstable.dashboardWidgets.get('p0');
  void api.unstable.dashboardWidgets.get('p0', {});
  void api.unstable.dashboardWidgets.get('p0', {}, ro);
  void api.unstable.dashboardWidgets.get('p0', {}, { timeoutInSeconds: 5, maxRetries: 2 });
  // @ts-expect-error requestOptions in the old position
  void api.unstable.dashboardWidgets.get('p0', ro);
  // @ts-expect-error an options literal in the old position
  void api.unstable.dashboardWidgets.get('p0', { timeoutInSeconds: 5 });
  // unstable.dashboardWidgets.delete
  void api.unstable.dashboardWidgets.delete('p0');
  void api.unstable.dashboardWidgets.delete('p0', {});
  void api.unstable.dashboardWidgets.delete('p0', {}, ro);
  void api.unstable.dashboardWidgets.delete('p0', {}, { timeoutInSeconds: 5, maxRetries: 2 });
  // @ts-expect-error requestOptions in the old position
  void api.unstable.dashboardWidgets.delete('p0', ro);
  // @ts-expect-error an options literal in the old position
  void api.unstable.dashboardWidgets.delete('p0', { timeoutInSeconds: 5 });
  // unstable.dashboards.get
  void api.unstable.dashboards.get('p0');
  void api.unstable.dashboards.get('p0', {});
  void api.unstable.dashboards.get('p0', {}, ro);
  void api.unstable.dashboards.get('p0', {}, { timeoutInSeconds: 5, maxRetries: 2 });
  // @ts-expect-error requestOptions in the old position
  void api.unstable.dashboards.get('p0', ro);
  // @ts-expect-error an options literal in the old position
  void api.unstable.dashboards.get('p0', { timeoutInSeconds: 5 });
  // unstable.dashboards.delete
  void api.unstable.dashboards.delete('p0');
  void api.unstable.dashboards.delete('p0', {});
  void api.unstable.dashboards.delete('p0', {}, ro);
  void api.unstable.dashboards.delete('p0', {}, { timeoutInSeconds: 5, maxRetries: 2 });
  // @ts-expect-error requestOptions in the old position
  void api.unstable.dashboards.delete('p0', ro);
  // @ts-expect-error an options literal in the old position
  void api.unstable.dashboards.delete('p0', { timeoutInSeconds: 5 });
  // unstable.dashboards.deletePlacement
  void api.unstable.dashboards.deletePlacement('p0', 'p1');
  void api.unstable.dashboards.deletePlacement('p0', 'p1', {});
  void api.unstable.dashboards.deletePlacement('p0', 'p1', {}, ro);
  void api.unstable.dashboards.deletePlacement('p0', 'p1', {}, { timeoutInSeconds: 5, maxRetries: 2 });
  // @ts-expect-error requestOptions in the old position
  void api.unstable.dashboards.deletePlacement('p0', 'p1', ro);
  // @ts-expect-error an options literal in the old position
  void api.unstable.dashboards.deletePlacement('p0', 'p1', { timeoutInSeconds: 5 });
  // unstable.skills.deleteVersion
  void api.unstable.skills.deleteVersion('p0', 'p1');
  void api.unstable.skills.deleteVersion('p0', 'p1', {});
  void api.unstable.skills.deleteVersion('p0', 'p1', {}, ro);
  void api.unstable.skills.deleteVersion('p0', 'p1', {}, { timeoutInSeconds: 5, maxRetries: 2 });
  // @ts-expect-error requestOptions in the old position
  void api.unstable.skills.deleteVersion('p0', 'p1', ro);
  // @ts-expect-error an options literal in the old position
  void api.unstable.skills.deleteVersion('p0', 'p1', { timeoutInSeconds: 5 });

  // @ts-expect-error maxRetries alone in the old position
  void api.datasets.get('name', { maxRetries: 1 });
  // @ts-expect-error the placeholder takes no fields at all
  void api.health.health({ anything: true });
  // @ts-expect-error a path parameter is still required
  void api.datasets.get({}, ro);
  // @ts-expect-error timeoutInSeconds is a number of seconds
  void api.models.get('m', {}, { timeoutInSeconds: '5' });
}
