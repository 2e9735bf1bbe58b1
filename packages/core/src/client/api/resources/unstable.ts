import type { Transport } from '../core/transport.js';
import type { EmptyRequest, RequestOptions } from '../core/types.js';
import { pathParam } from '../core/url.js';
import type { ApiRecord, DeleteResponse } from '../types.js';

/** `api.unstable.dashboardWidgets`: dashboard widgets (unstable API). */
export class DashboardWidgets {
  constructor(private readonly transport: Transport) {}

  /** `GET /api/public/unstable/dashboard-widgets/{widgetId}` */
  get(widgetId: string, request: EmptyRequest = {}, requestOptions?: RequestOptions): Promise<ApiRecord> {
    return this.transport.request(
      {
        name: 'unstable.dashboardWidgets.get',
        method: 'GET',
        path: `/api/public/unstable/dashboard-widgets/${pathParam(widgetId, 'widgetId')}`,
      },
      requestOptions,
    );
  }

  /** `DELETE /api/public/unstable/dashboard-widgets/{widgetId}` */
  delete(widgetId: string, request: EmptyRequest = {}, requestOptions?: RequestOptions): Promise<DeleteResponse> {
    return this.transport.request(
      {
        name: 'unstable.dashboardWidgets.delete',
        method: 'DELETE',
        path: `/api/public/unstable/dashboard-widgets/${pathParam(widgetId, 'widgetId')}`,
      },
      requestOptions,
    );
  }
}

/** `api.unstable.dashboards`: dashboards and their widget placements (unstable API). */
export class Dashboards {
  constructor(private readonly transport: Transport) {}

  /** `GET /api/public/unstable/dashboards/{dashboardId}` */
  get(dashboardId: string, request: EmptyRequest = {}, requestOptions?: RequestOptions): Promise<ApiRecord> {
    return this.transport.request(
      { name: 'unstable.dashboards.get', method: 'GET', path: `/api/public/unstable/dashboards/${pathParam(dashboardId, 'dashboardId')}` },
      requestOptions,
    );
  }

  /** `DELETE /api/public/unstable/dashboards/{dashboardId}` */
  delete(dashboardId: string, request: EmptyRequest = {}, requestOptions?: RequestOptions): Promise<DeleteResponse> {
    return this.transport.request(
      {
        name: 'unstable.dashboards.delete',
        method: 'DELETE',
        path: `/api/public/unstable/dashboards/${pathParam(dashboardId, 'dashboardId')}`,
      },
      requestOptions,
    );
  }

  /** `DELETE /api/public/unstable/dashboards/{dashboardId}/placements/{placementId}` */
  deletePlacement(
    dashboardId: string,
    placementId: string,
    request: EmptyRequest = {},
    requestOptions?: RequestOptions,
  ): Promise<DeleteResponse> {
    return this.transport.request(
      {
        name: 'unstable.dashboards.deletePlacement',
        method: 'DELETE',
        path: `/api/public/unstable/dashboards/${pathParam(dashboardId, 'dashboardId')}/placements/${pathParam(placementId, 'placementId')}`,
      },
      requestOptions,
    );
  }
}

/** `api.unstable.skills`: skill versions (unstable API). */
export class Skills {
  constructor(private readonly transport: Transport) {}

  /** `DELETE /api/public/unstable/skills/{skillName}/versions/{skillVersion}` */
  deleteVersion(
    skillName: string,
    skillVersion: string,
    request: EmptyRequest = {},
    requestOptions?: RequestOptions,
  ): Promise<DeleteResponse> {
    return this.transport.request(
      {
        name: 'unstable.skills.deleteVersion',
        method: 'DELETE',
        path: `/api/public/unstable/skills/${pathParam(skillName, 'skillName')}/versions/${pathParam(skillVersion, 'skillVersion')}`,
      },
      requestOptions,
    );
  }
}

/** `api.unstable`: endpoints whose shape may still change. */
export class Unstable {
  readonly dashboardWidgets: DashboardWidgets;
  readonly dashboards: Dashboards;
  readonly skills: Skills;

  constructor(transport: Transport) {
    this.dashboardWidgets = new DashboardWidgets(transport);
    this.dashboards = new Dashboards(transport);
    this.skills = new Skills(transport);
  }
}
