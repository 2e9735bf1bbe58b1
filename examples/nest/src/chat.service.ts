import { Injectable, NotFoundException } from '@nestjs/common';
import { startActiveObservation } from '@obs/core';
import { Observe } from '@obs/nest';
import { concatMap, from, timer, map, type Observable } from 'rxjs';

const DOCS = [
  'obs traces LLM applications: every request becomes a trace of observations.',
  'Generations record the model, its input and output, and token usage.',
  'Scores attach feedback to a trace, e.g. a thumbs-up from the user.',
];

/** A toy retrieval-augmented chat: retrieve, then ask a (fake) model. */
@Injectable()
export class ChatService {
  private readonly conversations = new Map<string, string[]>();

  @Observe({ asType: 'retriever' })
  async retrieve(question: string): Promise<string[]> {
    const words = question
      .toLowerCase()
      .split(/\W+/)
      .filter((w) => w.length > 3);
    return DOCS.filter((d) => words.some((w) => d.toLowerCase().includes(w)));
  }

  @Observe({ asType: 'chain' })
  async answer(conversationId: string, question: string): Promise<string> {
    const context = await this.retrieve(question);
    const answer = await startActiveObservation(
      'fake-chat-model',
      async (generation) => {
        const prompt = [`Context: ${context.join(' ') || 'none'}`, `Question: ${question}`];
        await new Promise((r) => setTimeout(r, 20)); // the model thinking
        const text = context.length > 0 ? `From what I know: ${context[0]}` : "I don't know that yet.";
        generation.update({
          model: 'fake-model-1',
          modelParameters: { temperature: 0 },
          input: prompt,
          output: text,
          usageDetails: { input: prompt.join(' ').length / 4, output: text.length / 4 },
        });
        return text;
      },
      { asType: 'generation' },
    );
    this.conversations.set(conversationId, [...(this.conversations.get(conversationId) ?? []), question]);
    return answer;
  }

  /** Streams an answer token by token (an Observable, ended when the client stops listening). */
  @Observe({ asType: 'generation', attributes: { model: 'fake-stream-model' } })
  stream(question: string): Observable<string> {
    const tokens = `You asked: "${question}". Here is a streamed answer.`.split(/(?<= )/);
    return from(tokens).pipe(concatMap((t) => timer(5).pipe(map(() => t))));
  }

  @Observe()
  history(conversationId: string): string[] {
    const history = this.conversations.get(conversationId);
    if (!history) throw new NotFoundException(`no conversation ${conversationId}`);
    return history;
  }
}
