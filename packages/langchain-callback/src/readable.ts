/** Reading what LangChain hands over when it may not be readable: a thrown value's reason, never throwing. */
import { errorMessage } from '@obs/core/kit';

/** The message of a thrown value (a Proxy, a null-prototype object, anything), never throwing. */
export function reasonOf(err: unknown): string {
  try {
    return errorMessage(err);
  } catch {
    return 'unreadable error';
  }
}
