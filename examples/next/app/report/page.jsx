import { observe } from '@obs/core';
import { connection } from 'next/server';

const lookup = observe(async (topic) => ({ topic, population: topic.length * 100_000 }), { name: 'lookup', asType: 'retriever' });
const summarize = observe(async (facts) => `${facts.topic} has about ${facts.population.toLocaleString('en')} people.`, {
  name: 'summarize',
  asType: 'chain',
});

/**
 * GET /report?topic=Lyon: a server component whose observed steps land in the trace of the request
 * Next.js is rendering.
 */
export default async function Report({ searchParams }) {
  await connection();
  const { topic = 'Lyon' } = await searchParams;
  const summary = await summarize(await lookup(String(topic)));
  return (
    <main>
      <h1>Report</h1>
      <p id="summary">{summary}</p>
    </main>
  );
}
