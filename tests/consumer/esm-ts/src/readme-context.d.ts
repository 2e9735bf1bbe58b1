// The modules README examples import from the app itself (declared context for the README compile).
declare module '@/lib/model' {
  import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
  export const model: BaseChatModel;
}
