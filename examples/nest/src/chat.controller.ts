import { Body, Controller, Get, Param, Post, Query, Sse, UseGuards, type MessageEvent } from '@nestjs/common';
import { map, type Observable } from 'rxjs';
import { BearerAuthGuard } from './auth.guard.js';
// biome-ignore lint/style/useImportType: Nest injects by the constructor's emitted design:paramtypes; a type-only import would emit Function there
import { ChatService } from './chat.service.js';

@Controller('chat')
@UseGuards(BearerAuthGuard)
export class ChatController {
  constructor(private readonly chat: ChatService) {}

  @Post(':conversationId')
  async ask(@Param('conversationId') conversationId: string, @Body() body: { question: string }) {
    return { answer: await this.chat.answer(conversationId, body.question) };
  }

  @Sse(':conversationId/stream')
  stream(@Query('q') question: string): Observable<MessageEvent> {
    return this.chat.stream(question).pipe(map((token) => ({ data: token })));
  }

  @Get(':conversationId/history')
  history(@Param('conversationId') conversationId: string) {
    return { questions: this.chat.history(conversationId) };
  }
}
