import { answer } from '../../../lib/answer.js';

export async function load({ params }) {
  return { greeting: await answer(`hello ${params.id}`) };
}

export const actions = {
  default: async ({ request }) => {
    const form = await request.formData();
    return { reply: await answer(String(form.get('message'))) };
  },
};
