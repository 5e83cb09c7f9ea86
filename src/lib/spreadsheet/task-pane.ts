import {
  DeviceFlowError,
  pollForConnection,
  requestDeviceCode,
  type DeviceCodeGrant,
} from './device-flow.ts';
import { hostKeyStore, type KeyStore, type SpreadsheetConnection } from './key-store.ts';
import { PORTAL_URL } from '../endpoints.ts';
import type { PricePlansAnswer } from '../price-plans.ts';

/**
 * The add-in's task pane without a framework: it shows whether the workbook is connected, runs the
 * device flow on Connect (the code, the link to confirm it on the site, polling at the server's
 * interval), stores the delivered key for the functions, and forgets it on Disconnect. The markup is
 * the task pane page's; elements are found by their data-pane attributes.
 */

function element(root: ParentNode, name: string): HTMLElement {
  const found = root.querySelector(`[data-pane="${name}"]`);
  if (!(found instanceof HTMLElement)) throw new Error(`the task pane has no [data-pane="${name}"]`);
  return found;
}

function button(root: ParentNode, name: string): HTMLButtonElement {
  const found = element(root, name);
  if (!(found instanceof HTMLButtonElement)) throw new Error(`[data-pane="${name}"] is not a button`);
  return found;
}

function anchor(root: ParentNode, name: string): HTMLAnchorElement {
  const found = element(root, name);
  if (!(found instanceof HTMLAnchorElement)) throw new Error(`[data-pane="${name}"] is not a link`);
  return found;
}

type View = 'signed-out' | 'pending' | 'connected';

/** The plan's name as the price list gives it ("Free", "Starter"), or its code when the list cannot be read. */
async function planName(code: string): Promise<string> {
  try {
    const response = await fetch(`${PORTAL_URL}/account/get-price-plans`, {
      headers: { accept: 'application/json' },
    });
    if (!response.ok) return code;
    const answer = (await response.json()) as PricePlansAnswer;
    return answer.plans.find((plan) => plan.code === code)?.name ?? code;
  } catch {
    return code;
  }
}

/** Wires the task pane page; `keys` defaults to the host's store (OfficeRuntime.storage or localStorage). */
export function startTaskPane(root: ParentNode, keys: KeyStore = hostKeyStore()): void {
  const views = {
    'signed-out': element(root, 'signed-out'),
    pending: element(root, 'pending'),
    connected: element(root, 'connected'),
  } satisfies Record<View, HTMLElement>;
  const status = element(root, 'status');
  const connect = button(root, 'connect');
  const cancel = button(root, 'cancel');
  const disconnect = button(root, 'disconnect');
  const code = element(root, 'code');
  const link = anchor(root, 'link');
  const account = element(root, 'account');
  const plan = element(root, 'plan');
  let polling: AbortController | undefined;

  const show = (view: View, message = ''): void => {
    for (const [name, node] of Object.entries(views)) node.hidden = name !== view;
    status.textContent = message;
  };

  const showConnected = (connection: SpreadsheetConnection): void => {
    account.textContent = connection.email;
    plan.textContent = connection.plan;
    show('connected');
    void planName(connection.plan).then((name) => {
      plan.textContent = name;
    });
  };

  const showGrant = (grant: DeviceCodeGrant): void => {
    code.textContent = grant.user_code;
    link.href = grant.verification_uri_complete;
    link.textContent = grant.verification_uri;
    show('pending');
  };

  connect.addEventListener('click', () => {
    polling?.abort();
    const controller = new AbortController();
    polling = controller;
    connect.disabled = true;
    void (async () => {
      try {
        const grant = await requestDeviceCode({ signal: controller.signal });
        showGrant(grant);
        const connection = await pollForConnection(grant, { signal: controller.signal });
        await keys.set(connection);
        showConnected(connection);
      } catch (error) {
        if (controller.signal.aborted) return;
        const message =
          error instanceof DeviceFlowError
            ? error.message
            : 'Could not reach the site. Check the connection and try again.';
        show('signed-out', message);
      } finally {
        connect.disabled = false;
      }
    })();
  });

  cancel.addEventListener('click', () => {
    polling?.abort();
    show('signed-out', 'Connecting was cancelled.');
  });

  disconnect.addEventListener('click', () => {
    void keys.clear().then(() => {
      show('signed-out', 'Disconnected. The functions answer #N/A until you connect again.');
    });
  });

  void keys.get().then((connection) => {
    if (connection === undefined) show('signed-out');
    else showConnected(connection);
  });
}
