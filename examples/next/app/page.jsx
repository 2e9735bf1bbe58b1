import { askForm } from './actions';

/** The home page: a form posting to a server action traced with `observe`. */
export default function Home() {
  return (
    <main>
      <h1>obs + Next.js</h1>
      <form action={askForm}>
        <input name="question" defaultValue="What is six times seven?" />
        <button type="submit">Ask</button>
      </form>
      <p>
        Try <code>POST /api/chat/42</code>, <code>GET /api/stream?topic=Paris</code>, <code>GET /api/edge?text=hi?</code>,{' '}
        <a href="/report?topic=Lyon">a server-rendered report</a>.
      </p>
    </main>
  );
}
