// @ts-check
import { withObs } from '@obs/next';
import { invokeModel } from '../../../../lib/chat';

/**
 * POST /api/chat/:id  { "message": "..." } -> { "id", "answer" }
 * One trace per request: root `POST /api/chat/[id]`, the model's generation under it, both carrying
 * the user id from the `x-user-id` header and the conversation id as the session.
 */
export const POST = withObs(
  /** @param {Request} req @param {{ params: Promise<{ id: string }> }} ctx */
  async (req, { params }) => {
    const { id } = await params;
    const { message } = await req.json();
    const answer = await invokeModel([
      ['system', 'You are a concise geography assistant.'],
      ['human', String(message ?? '')],
    ]);
    return Response.json({ id, answer });
  },
  {
    identify: (req) => ({
      userId: req.headers.get('x-user-id') ?? undefined,
      sessionId: new URL(req.url).pathname.split('/').pop(),
      tags: ['example', 'chat'],
    }),
  },
);
