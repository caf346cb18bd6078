import { router } from '../../../trpc';
import { connectors } from './connectors';
import { health } from './health';
import { setEnabled } from './set-enabled';
import { setMode } from './set-mode';

// The processors: connectors, their modes and breakers, and their health (docs/ORCHESTRATION.md 1, 4).
export const processorsRouter = router({ connectors, health, setMode, setEnabled });
