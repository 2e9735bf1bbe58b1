/**
 * Every ```ts example of every README, extracted mechanically for the consumer test to compile. An
 * example that is deliberately partial (it uses a `chain` or an `app` set up elsewhere) declares
 * what it assumes in an HTML comment right above its fence, invisible on npm and GitHub:
 *
 *   <!-- ts-context
 *   declare const chain: { invoke(input: unknown): Promise<string> };
 *   -->
 *
 * The context goes before the example in the compiled file; a line `// (the example)` in it splits
 * it into what goes before and what goes after (to wrap a line in a function). Examples that use Nest compile in the
 * Nest CommonJS app (decorators); the Nest README's `// app.module.ts` example is that app's module,
 * which the test runs. Examples that use the MCP SDK compile in the MCP app (checking the SDK's
 * declarations under `skipLibCheck: false` costs about 20 s of CPU, outside the ESM app's budget).
 * The agent SDK packages' examples compile in the ESM TypeScript app's folder as a project of their
 * own (see AGENT_READMES). Everything else compiles in the ESM TypeScript app.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Snippet {
  /** README path from the repository root, and the example's line in it. */
  readme: string;
  line: number;
  /** File name (without `.ts`) to write it under. */
  file: string;
  /** The context, then the example. */
  source: string;
  target: 'esm' | 'nest' | 'mcp' | 'agents';
}

/**
 * READMEs of the agent SDK packages: their examples compile in a project of their own
 * (`esm-ts/tsconfig.agents.json`, strict with skipLibCheck), since `@mastra/core`'s published
 * declarations do not compile without it (`@mastra/schema-compat` names a `./json-schema/index.js`
 * it does not ship) and the agent SDKs' declarations cost the ESM app's compile minutes.
 */
const AGENT_READMES = new Set(['packages/openai-agents/README.md', 'packages/claude-agent-sdk/README.md', 'packages/mastra/README.md']);

const BLOCK = /(?:<!--\s*ts-context\s*\n([\s\S]*?)-->\s*\n)?```ts\n([\s\S]*?)```/g;

/** The READMEs: the repository's and every package's. */
function readmes(repo: string): string[] {
  const packages = readdirSync(join(repo, 'packages')).map((p) => join('packages', p, 'README.md'));
  return ['README.md', ...packages].filter((p) => {
    try {
      readFileSync(join(repo, p));
      return true;
    } catch {
      return false;
    }
  });
}

/** The examples; with `countOnly`, just every ```ts fence (to check none is missed). */
export function readmeSnippets(repo: string, { countOnly = false } = {}): Snippet[] {
  const out: Snippet[] = [];
  for (const readme of readmes(repo)) {
    const text = readFileSync(join(repo, readme), 'utf8');
    if (countOnly) {
      for (const m of text.matchAll(/^```ts$/gm)) out.push({ readme, line: lineOf(text, m.index), file: '', source: '', target: 'esm' });
      continue;
    }
    const slug = readme === 'README.md' ? 'root' : readme.split('/')[1]!;
    for (const m of text.matchAll(BLOCK)) {
      const [before = '', after = ''] = (m[1] ?? '').split(/^\/\/ \(the example\)\n/m);
      const code = m[2]!;
      const line = lineOf(text, m.index + m[0].indexOf('```ts'));
      const nest = /@nestjs\/|@obs\/nest/.test(before + code) || /^@(Module|Injectable|Controller)\(/m.test(code);
      const mcp = /@modelcontextprotocol\//.test(before + code);
      const appModule = readme === 'packages/nest/README.md' && code.startsWith('// app.module.ts');
      out.push({
        readme,
        line,
        file: appModule ? 'app.module' : `readme-${slug}-L${line}`,
        // `export {}`: every example is a module of its own (top-level await, no shared globals).
        source: `// ${readme}, line ${line}\n${before}${code}${after}\nexport {};\n`,
        target: nest ? 'nest' : mcp ? 'mcp' : AGENT_READMES.has(readme) ? 'agents' : 'esm',
      });
    }
  }
  return out;
}

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}
