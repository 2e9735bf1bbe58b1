// Before the evals: an obs server to report to (a local one, in memory, when OBS_BASE_URL is not
// set: the example then runs anywhere, CI included) and the `capitals` dataset on it. Seeding is
// idempotent: the items have fixed ids, so a rerun updates them.
import { ObsClient } from '@obs/core';
import { startObsServer } from '@obs/local-server';

export const CAPITALS: Array<[country: string, capital: string]> = [
  ['France', 'Paris'],
  ['Japan', 'Tokyo'],
  ['Peru', 'Lima'],
  ['Australia', 'Canberra'],
  ['Canada', 'Ottawa'],
  ['Kenya', 'Nairobi'],
];

export default async function setup(): Promise<() => Promise<void>> {
  const server = process.env.OBS_BASE_URL ? undefined : await startObsServer({ quiet: true });
  if (server) Object.assign(process.env, server.env);
  const client = new ObsClient();
  await client.api.datasets.create({ name: 'capitals', description: 'capital cities' });
  for (const [country, capital] of CAPITALS) {
    await client.dataset.createItem({
      datasetName: 'capitals',
      id: `capital-${country.toLowerCase()}`,
      input: { country },
      expectedOutput: capital,
    });
  }
  return async () => {
    await server?.close();
  };
}
