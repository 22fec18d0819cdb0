import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

const farmingTaskRoutes: FastifyPluginAsyncTypebox = async () => {};
export default farmingTaskRoutes;
