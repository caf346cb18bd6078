import { router } from '../../../trpc';
import { addUser } from './add-user';
import { merchant } from './merchant';
import { setUserDisabled } from './set-user-disabled';
import { setUserRole } from './set-user-role';
import { updateExpiries } from './update-expiries';
import { updateMethods } from './update-methods';
import { updateProfile } from './update-profile';
import { users } from './users';

export const settingsRouter = router({
  merchant,
  updateProfile,
  updateMethods,
  updateExpiries,
  users,
  addUser,
  setUserRole,
  setUserDisabled,
});
