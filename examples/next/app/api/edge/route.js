// @ts-check
import { observe } from '@obs/core';
import { withObs } from '@obs/next';

export const runtime = 'edge';

const classify = observe(
  /** @param {string} text */
  async (text) => (/\?$/.test(text.trim()) ? 'question' : 'statement'),
  { name: 'classify', asType: 'chain' },
);

/** GET /api/edge?text=... on the edge runtime: same tracing, uncompressed export (no Node built-ins). */
export const GET = withObs(
  /** @param {Request} req */
  async (req) => {
    const text = new URL(req.url).searchParams.get('text') ?? '';
    return Response.json({ text, kind: await classify(text), runtime: 'edge' });
  },
);
