import { defineConfig } from 'tsup';
import { nodeAppBundle } from '../../tsup.base';

export default defineConfig(nodeAppBundle);
