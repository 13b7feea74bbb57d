/**
 * Signals between the API client, the session and other tabs. A login or logout in one tab
 * reloads the others (§4); an expired session opens the "Session Expired" dialog.
 */
type AuthBroadcast = { type: 'login' | 'logout' };

const channelName = 'rarelens-auth';
const storageKey = 'rarelens-auth-event';

let channel: BroadcastChannel | undefined;
function getChannel(): BroadcastChannel | undefined {
  if (typeof BroadcastChannel === 'undefined') return undefined;
  channel ??= new BroadcastChannel(channelName);
  return channel;
}

/** Tells the other open tabs that this tab signed in or out. */
export function broadcastAuthChange(type: AuthBroadcast['type']): void {
  const ch = getChannel();
  if (ch) {
    ch.postMessage({ type } satisfies AuthBroadcast);
    return;
  }
  // Fallback for browsers without BroadcastChannel: the storage event fires in other tabs only.
  localStorage.setItem(storageKey, JSON.stringify({ type, at: Date.now() }));
}

/** Calls `onChange` when another tab signs in or out; returns the unsubscribe function. */
export function subscribeToOtherTabs(onChange: (type: AuthBroadcast['type']) => void): () => void {
  const ch = getChannel();
  const handleMessage = (event: MessageEvent<AuthBroadcast>) => onChange(event.data.type);
  const handleStorage = (event: StorageEvent) => {
    if (event.key !== storageKey || !event.newValue) return;
    const parsed = JSON.parse(event.newValue) as AuthBroadcast;
    onChange(parsed.type);
  };
  ch?.addEventListener('message', handleMessage);
  window.addEventListener('storage', handleStorage);
  return () => {
    ch?.removeEventListener('message', handleMessage);
    window.removeEventListener('storage', handleStorage);
  };
}

type Listener = () => void;
const expiredListeners = new Set<Listener>();

/** Opens the Session Expired dialog (through whoever listens). */
export function notifySessionExpired(): void {
  for (const listener of expiredListeners) listener();
}

export function onSessionExpired(listener: Listener): () => void {
  expiredListeners.add(listener);
  return () => expiredListeners.delete(listener);
}
