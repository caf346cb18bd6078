import { router } from '../../../trpc';
import { discardDraft } from './discard-draft';
import { publishDraft } from './publish-draft';
import { routing } from './routing';
import { saveDraft } from './save-draft';
import { tryDraft } from './try-draft';
import { updatePolicy } from './update-policy';
import { updateThreeDs } from './update-three-ds';
import { updateCapture } from './update-capture';

// A merchant's routing rules and retry policy per method, its 3-D Secure setting (docs/ORCHESTRATION.md
// 2, 3, 5) and its capture per method (docs/DECISIONS.md "Capture later").
export const routingRouter = router({
  routing,
  saveDraft,
  tryDraft,
  publishDraft,
  discardDraft,
  updatePolicy,
  updateThreeDs,
  updateCapture,
});
