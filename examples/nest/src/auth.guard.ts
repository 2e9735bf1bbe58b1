import { Injectable, UnauthorizedException, type CanActivate, type ExecutionContext } from '@nestjs/common';

/** The users of this example, by bearer token (a real app would verify a JWT here). */
const USERS: Record<string, { id: string; plan: string }> = {
  'token-alice': { id: 'alice', plan: 'pro' },
  'token-bob': { id: 'bob', plan: 'free' },
};

/** Sets `req.user` from the bearer token, as Passport's AuthGuard would. */
@Injectable()
export class BearerAuthGuard implements CanActivate {
  canActivate(ctx: ExecutionContext): boolean {
    const req = ctx.switchToHttp().getRequest();
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const user = token ? USERS[token] : undefined;
    if (!user) throw new UnauthorizedException('a bearer token is required');
    req.user = user;
    return true;
  }
}
