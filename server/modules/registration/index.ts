import { Elysia } from 'elysia'
import { z } from 'zod'
import type { AppContext } from '../../context'
import { requestLanguage } from '../../http/request'
import { idParam } from '../../shared/validation'
import { RegistrationInput } from './model'
import { registerPublic } from './service'

export function registrationRoutes(ctx: AppContext) {
  return new Elysia({ name: 'registration' }).post(
    '/proxy/api/public/events/:id/registrations',
    async ({ params, body, request, set }) => {
      const r = await registerPublic(ctx, params.id, body, requestLanguage(request, ctx.license.features))
      set.status = 201
      return { visitorId: r.visitor.id, status: r.status, visitorCount: r.visitor.visitor_count, email: r.visitor.email }
    },
    {
      params: z.object({ id: idParam() }),
      body: RegistrationInput,
      detail: { tags: ['registration'], summary: 'Register for an event from its public page or frame' },
    },
  )
}
