/**
 * Which service an OpenAI client talks to, for the `provider` metadata of its calls: from the
 * host of its base URL (Groq, OpenRouter, DeepSeek, Together, Fireworks, xAI, Mistral, Azure
 * OpenAI; Ollama by its default port). A self-hosted server the URL does not name is named by
 * its answers instead (core's Chat Completions reader: Ollama, vLLM).
 */

/** Hosts by their provider; a suffix starting with `.` matches every subdomain. */
const HOSTS: ReadonlyArray<readonly [string, string]> = [
  ['api.openai.com', 'openai'],
  ['.openai.azure.com', 'azure'],
  ['.cognitiveservices.azure.com', 'azure'],
  ['.services.ai.azure.com', 'azure'],
  ['api.groq.com', 'groq'],
  ['openrouter.ai', 'openrouter'],
  ['api.deepseek.com', 'deepseek'],
  ['api.together.xyz', 'together'],
  ['api.together.ai', 'together'],
  ['api.fireworks.ai', 'fireworks'],
  ['api.x.ai', 'xai'],
  ['api.mistral.ai', 'mistral'],
  ['generativelanguage.googleapis.com', 'google'],
];

/** The provider behind `client`, from its base URL; undefined when the URL does not say. */
export function providerOf(client: object): string | undefined {
  const c = client as { baseURL?: unknown; constructor?: { name?: unknown } };
  if (c.constructor?.name === 'AzureOpenAI') return 'azure';
  if (typeof c.baseURL !== 'string' || !URL.canParse(c.baseURL)) return undefined;
  const url = new URL(c.baseURL);
  for (const [host, provider] of HOSTS) {
    if (host.startsWith('.') ? url.hostname.endsWith(host) : url.hostname === host) return provider;
  }
  // Ollama's OpenAI-compatible API on its default port.
  return url.port === '11434' ? 'ollama' : undefined;
}
