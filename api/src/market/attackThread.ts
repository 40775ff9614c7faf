/** The privacy scorecard's attack battery on a thread of its own: it takes seconds, and the server keeps answering meanwhile. */
import { answerFromThread } from '../threads/start.js';
import { runAttackBattery, type BatteryOptions } from './engine/index.js';

void answerFromThread(async (data) => runAttackBattery(data as BatteryOptions));
