import { loadSettingsPage } from '../../federation';
import { RemotePage } from '../../remotes/RemoteBoundary';

export function SettingsRoute() {
  return <RemotePage load={loadSettingsPage} props={{}} fallbackTitle="Settings could not be loaded" loadingLabel="Loading settings" />;
}
