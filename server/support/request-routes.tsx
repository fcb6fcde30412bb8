import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';

/** My requests, a request's detail, named contacts, the staff list and the helpdesk's status endpoint. */
export default async function requestRoutes(_app: FastifyInstance, _opts: { config: Config }) {}
