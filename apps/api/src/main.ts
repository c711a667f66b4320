import { runService } from '@antidote/runtime';
import { apiService } from './api.definition.js';

runService(apiService);
