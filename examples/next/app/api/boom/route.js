// @ts-check
import { withObs } from '@obs/next';

/** POST /api/boom: the handler throws; the root observation records the error (level ERROR, 500). */
export const POST = withObs(
  /** @param {Request} req */
  async (req) => {
    const { reason } = await req.json().catch(() => ({}));
    throw new Error(`model provider unavailable: ${reason ?? 'unknown'}`);
  },
);
