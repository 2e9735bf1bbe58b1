/**
 * `embeddings.create` as one embedding observation: the model, the input text(s) and the token
 * usage. The vectors are not recorded: they are large and say nothing a reader can check.
 */
import { isDict, type ModelEndpoint, openAiUsage, pick } from '@obs/core/kit';

export const EMBEDDINGS: ModelEndpoint = {
  name: 'openai.embeddings.create',
  type: 'embedding',
  request(body) {
    return { model: body['model'], input: body['input'], modelParameters: pick(body, ['dimensions', 'encoding_format']) };
  },
  response(value) {
    if (!isDict(value)) return {};
    return { model: value['model'], usageDetails: openAiUsage(value['usage']) };
  },
};
