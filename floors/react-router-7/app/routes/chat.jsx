import { observe } from '@obs/core';
import { useLoaderData } from 'react-router';

/** A model call, as an LLM app would make one: a generation under the loader or action that made it. */
const answer = observe(async (question) => `You asked: ${question}`, { name: 'answer', asType: 'generation' });

export async function loader({ params }) {
  return { id: params.id, greeting: await answer(`hello ${params.id}`) };
}

export async function action({ request, params }) {
  const form = await request.formData();
  return { id: params.id, reply: await answer(String(form.get('message'))) };
}

export default function Chat() {
  const data = useLoaderData();
  return <p>{data.greeting}</p>;
}
