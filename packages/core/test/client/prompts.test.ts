/**
 * `client.prompt` against the local obs server: the cache (request counts), stale-while-
 * revalidate, shared requests, fallbacks, invalidation, and the prompt objects (compile,
 * LangChain templates accepted by real @langchain/core, toJSON, linking to generations).
 */

import { AIMessage, HumanMessage, SystemMessage } from '@langchain/core/messages';
import { ChatPromptTemplate, PromptTemplate } from '@langchain/core/prompts';
import { setupObsServer } from '@obs/local-server/testing';
import { describe, expect, it } from 'vitest';
import { ChatPromptClient, TextPromptClient } from '../../src/client/prompts/prompt-client.js';
import { CLIENT_KEYS, type LogLine, routeLogsInto } from '../support/server.js';
import { clientFor, messages } from './helpers.js';

const logs: LogLine[] = [];
const { server } = await setupObsServer({ ...CLIENT_KEYS, beforeEach: () => routeLogsInto(logs) }).ready;

const promptGets = () => server.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/api/public/v2/prompts/'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function seed(client = clientFor(server)) {
  await client.api.prompts.create({ name: 'greeting', prompt: 'Hello {{name}}, v1', labels: ['production'] });
  await client.api.prompts.create({ name: 'greeting', prompt: 'Hello {{name}}, v2', labels: ['staging'] });
  server.requests.length = 0;
  return client;
}

describe('prompt cache', () => {
  it('a second get within the TTL makes no request; version and label are cached apart', async () => {
    const client = await seed();
    const a = await client.prompt.get('greeting');
    const b = await client.prompt.get('greeting');
    expect(b).toBe(a);
    expect(a.version).toBe(1);
    expect(promptGets()).toHaveLength(1);
    expect((await client.prompt.get('greeting', { version: 2 })).version).toBe(2);
    expect((await client.prompt.get('greeting', { label: 'staging' })).version).toBe(2);
    expect((await client.prompt.get('greeting', { version: 2 })).version).toBe(2);
    expect(promptGets().map((r) => r.query)).toEqual([{}, { version: '2' }, { label: 'staging' }]);
  });

  it('cacheTtlSeconds: 0 fetches every time', async () => {
    const client = await seed();
    for (let i = 0; i < 3; i++) await client.prompt.get('greeting', { cacheTtlSeconds: 0 });
    expect(promptGets()).toHaveLength(3);
  });

  it('20 concurrent gets of an uncached prompt share one request', async () => {
    const client = await seed();
    const all = await Promise.all(Array.from({ length: 20 }, () => client.prompt.get('greeting')));
    expect(new Set(all).size).toBe(1);
    expect(promptGets()).toHaveLength(1);
  });

  it('a stale entry is returned at once while one shared background refresh runs', async () => {
    const client = await seed();
    const first = await client.prompt.get('greeting', { cacheTtlSeconds: 0.05 });
    expect(first.version).toBe(1);
    // Move production to v2 on the server behind the cache's back.
    await client.api.promptVersion.update('greeting', 2, { newLabels: ['production'] });
    await sleep(80);
    server.requests.length = 0;
    server.injectFault({ path: '/api/public/v2/prompts/greeting', delayMs: 100 });
    const stale = await Promise.all(Array.from({ length: 10 }, () => client.prompt.get('greeting', { cacheTtlSeconds: 0.05 })));
    // Answered from the cache while the (slow) refresh is still in flight.
    for (const p of stale) expect(p.version).toBe(1);
    await server.waitFor(() => promptGets()[0]?.status === 200);
    await sleep(5);
    expect(promptGets()).toHaveLength(1);
    expect((await client.prompt.get('greeting', { cacheTtlSeconds: 60 })).version).toBe(2);
    expect(promptGets()).toHaveLength(1);
  });

  it('a failed refresh keeps serving the stale prompt, with a warning', async () => {
    const client = await seed();
    await client.prompt.get('greeting', { cacheTtlSeconds: 0.01 });
    await sleep(20);
    server.injectFault({ path: '/api/public/v2/prompts/greeting', status: 500, times: 10 });
    const stale = await clientPromptGet(client);
    expect(stale.version).toBe(1);
    await server.waitFor(() => messages(logs, 'warn').some((l) => l.startsWith('prompt "greeting": refreshing the cached prompt failed')));
  });

  it('prompt.update and prompt.create invalidate the cached entries of that name', async () => {
    const client = await seed();
    expect((await client.prompt.get('greeting')).version).toBe(1);
    await client.prompt.update({ name: 'greeting', version: 2, newLabels: ['production'] });
    expect((await client.prompt.get('greeting')).version).toBe(2);
    const created = await client.prompt.create({ name: 'greeting', prompt: 'Hi {{name}}, v3', labels: ['production'] });
    expect(created.version).toBe(3);
    expect((await client.prompt.get('greeting')).version).toBe(3);
    expect(promptGets()).toHaveLength(3);
  });
});

function clientPromptGet(client: ReturnType<typeof clientFor>) {
  return client.prompt.get('greeting', { cacheTtlSeconds: 0.01, requestOptions: { maxRetries: 0 } });
}

describe('fallback', () => {
  it('a missing prompt with a fallback gives a prompt with isFallback: true and one warning; without one it rejects', async () => {
    const client = clientFor(server);
    const text = await client.prompt.get('missing', { fallback: 'Hi {{name}}' });
    expect(text).toBeInstanceOf(TextPromptClient);
    expect(text).toMatchObject({ name: 'missing', isFallback: true, prompt: 'Hi {{name}}' });
    expect(text.compile({ name: 'Ada' })).toBe('Hi Ada');
    expect(messages(logs, 'warn')).toHaveLength(1);
    expect(messages(logs, 'warn')[0]).toMatch(
      /^prompt "missing" could not be read \(prompts\.get failed with HTTP 404\); using the fallback/,
    );
    await expect(client.prompt.get('missing')).rejects.toThrow(/HTTP 404/);
    // A fallback is not cached: the next get asks the server again.
    expect(promptGets()).toHaveLength(2);
  });

  it('an outage with nothing cached yields a chat fallback', async () => {
    const client = clientFor(server, { maxRetries: 0 });
    server.injectFault({ path: /\/api\/public\/v2\/prompts\//, status: 503, times: 5 });
    const chat = await client.prompt.get('support', { type: 'chat', fallback: [{ role: 'system', content: 'Be brief, {{name}}.' }] });
    expect(chat).toBeInstanceOf(ChatPromptClient);
    expect(chat.isFallback).toBe(true);
    expect(chat.compile({ name: 'Ada' })).toEqual([{ role: 'system', content: 'Be brief, Ada.' }]);
    expect(messages(logs, 'warn')).toHaveLength(1);
  });
});

describe('prompt objects', () => {
  it('text: compile, a LangChain PromptTemplate that formats the same text, toJSON', async () => {
    const client = clientFor(server);
    await client.api.prompts.create({
      name: 'json-prompt',
      prompt: 'Answer {{ question }} as {"answer": "..."} for {{user}}; {{unknown}} stays',
      labels: ['production'],
      config: { model: 'x' },
    });
    const prompt = await client.prompt.get('json-prompt');
    expect(prompt.compile({ question: 'why?', user: { id: 1 } })).toBe('Answer why? as {"answer": "..."} for {"id":1}; {{unknown}} stays');
    const template = PromptTemplate.fromTemplate(prompt.getLangchainPrompt());
    expect([...template.inputVariables].sort()).toEqual(['question', 'unknown', 'user']);
    expect(await template.format({ question: 'why?', user: 'Ada', unknown: 'u' })).toBe(
      'Answer why? as {"answer": "..."} for Ada; u stays',
    );
    expect(JSON.parse(JSON.stringify(prompt))).toEqual({
      name: 'json-prompt',
      version: 1,
      type: 'text',
      prompt: prompt.prompt,
      config: { model: 'x' },
      labels: ['production', 'latest'],
      tags: [],
      isFallback: false,
    });
  });

  it('chat: compile with variables and placeholders, and a LangChain ChatPromptTemplate with a MessagesPlaceholder', async () => {
    const client = clientFor(server);
    await client.api.prompts.create({
      type: 'chat',
      name: 'chat',
      labels: ['production'],
      prompt: [
        { role: 'system', content: 'You help {{user}}. Reply in JSON like {"ok": true}.' },
        { type: 'placeholder', name: 'history' },
        { role: 'user', content: '{{question}}' },
      ],
    });
    const prompt = await client.prompt.get('chat', { type: 'chat' });
    expect(prompt).toBeInstanceOf(ChatPromptClient);
    const history = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
    ];
    expect(prompt.compile({ user: 'Ada', question: 'why?' }, { history })).toEqual([
      { role: 'system', content: 'You help Ada. Reply in JSON like {"ok": true}.' },
      ...history,
      { role: 'user', content: 'why?' },
    ]);
    // Without a value the placeholder stays, so the caller sees what is missing.
    expect(prompt.compile({ user: 'Ada', question: 'q' })[1]).toEqual({ type: 'placeholder', name: 'history' });

    const template = ChatPromptTemplate.fromMessages(prompt.getLangchainPrompt());
    const formatted = await template.formatMessages({
      user: 'Ada',
      question: 'why?',
      history: [new HumanMessage('hi'), new AIMessage('hello')],
    });
    expect(formatted.map((m) => [m.constructor.name, m.content])).toEqual([
      [SystemMessage.name, 'You help Ada. Reply in JSON like {"ok": true}.'],
      [HumanMessage.name, 'hi'],
      [AIMessage.name, 'hello'],
      [HumanMessage.name, 'why?'],
    ]);
  });
});
