import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';

/** The outbox worker: hands stored requests on by e-mail and webhook. */
export default async function delivery(_app: FastifyInstance, _opts: { config: Config }) {}
