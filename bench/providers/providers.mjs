// The providers the bench knows, by the name `--provider` takes: each is a file beside this one
// (`<name>.mjs`) exporting `routes` (the stand-in's answers), `call(client, stream)` (one call,
// its text returned), `answer` (the text every call must return), `label` and `setups` (the
// unwrapped client first, then obs, then the peers; each `{ name, scope?, sink?, create(ctx) }`,
// `create` resolving to `{ client, flush }` in the setup's own process). Add a provider here and
// in its file; nothing else changes.
export const PROVIDERS = {
  anthropic: 'Anthropic SDK (`@anthropic-ai/sdk` 1.x) `messages.create`',
  openai: 'OpenAI SDK (`openai` 7) `chat.completions.create`',
  gemini: 'Google Gen AI SDK (`@google/genai` 3.x) `models.generateContent`',
  bedrock: 'AWS Bedrock Runtime (`@aws-sdk/client-bedrock-runtime` 3.x, HTTP/2) `send(ConverseCommand)`',
};
