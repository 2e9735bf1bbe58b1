import { Module } from '@nestjs/common';
import { ObsModule } from '@obs/nest';
import { ChatController } from './chat.controller.js';
import { ChatService } from './chat.service.js';

interface AuthedRequest {
  user?: { id: string; plan: string };
  headers: Record<string, string | undefined>;
}

@Module({
  imports: [
    // Configured from OBS_BASE_URL, OBS_PUBLIC_KEY and OBS_SECRET_KEY.
    ObsModule.forRoot({
      // Runs after BearerAuthGuard, so req.user is there; reaches every span of the request.
      identify: (req: AuthedRequest) => ({
        userId: req.user?.id,
        sessionId: req.headers['x-session-id'],
        tags: ['nest-example'],
        metadata: { plan: req.user?.plan },
      }),
    }),
  ],
  controllers: [ChatController],
  providers: [ChatService],
})
export class AppModule {}
