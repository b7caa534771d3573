import { Elysia } from 'elysia'
import { z } from 'zod'
import type { AppContext } from '../../context'
import { notFound } from '../../shared/errors'
import { idParam } from '../../shared/validation'
import { requireOrganiser } from '../identity/auth'
import { taskDto } from './runner'

export function taskRoutes(ctx: AppContext) {
  return new Elysia({ name: 'tasks' }).get(
    '/proxy/api/tasks/:id',
    async (c) => {
      // organiser accounts only: a guest-role account of the agency reads no background tasks (issue 9)
      const actor = await requireOrganiser(ctx, c)
      const task = await ctx.db.selectFrom('task').selectAll().where('id', '=', c.params.id).executeTakeFirst()
      if (!task || task.agency_id !== actor.account.agency_id) throw notFound()
      return taskDto(task)
    },
    { params: z.object({ id: idParam() }), detail: { tags: ['tasks'], summary: 'Poll a background task (WAIT, RUNNING, FINISHED, ERROR)' } },
  )
}
