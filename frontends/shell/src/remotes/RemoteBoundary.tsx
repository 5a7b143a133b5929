import { Button, EmptyState, Spinner, WarningIcon } from '@ledgerline/ui';
import { Component, Suspense, use, useState, type ComponentType, type ErrorInfo, type ReactNode } from 'react';

interface BoundaryProps {
  fallbackTitle: string;
  onRetry: () => void;
  children: ReactNode;
}

interface BoundaryState {
  error: Error | null;
}

/** Catches a remote that fails to load or to render, and offers a retry instead of a blank page. */
export class RemoteErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { error: null };

  static getDerivedStateFromError(error: Error): BoundaryState {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Remote failed', error, info.componentStack);
  }

  override render() {
    if (this.state.error === null) return this.props.children;
    return (
      <EmptyState
        icon={<WarningIcon className="size-5" />}
        title={this.props.fallbackTitle}
        description="This part of Ledgerline is served separately and did not answer. Check your connection and try again."
        action={
          <Button
            variant="secondary"
            onClick={() => {
              this.setState({ error: null });
              this.props.onRetry();
            }}
          >
            Retry
          </Button>
        }
      />
    );
  }
}

function LoadedRemote<P extends object>({ page, props }: { page: Promise<ComponentType<P>>; props: P }) {
  const Page = use(page);
  return <Page {...props} />;
}

export interface RemotePageProps<P extends object> {
  /** Loads the remote's page component; `retry` is true after a failure. */
  load: (retry: boolean) => Promise<ComponentType<P>>;
  /** What the page is given (the shell's description of its area, say). */
  props: P;
  fallbackTitle: string;
  loadingLabel: string;
}

export function RemotePage<P extends object>({ load, props, fallbackTitle, loadingLabel }: RemotePageProps<P>) {
  // One promise per attempt: `use` needs the same promise across renders, and a retry needs a new one.
  const [page, setPage] = useState(() => load(false));
  return (
    <RemoteErrorBoundary fallbackTitle={fallbackTitle} onRetry={() => setPage(load(true))}>
      <Suspense
        fallback={
          <div className="flex justify-center py-24 text-brand-600">
            <Spinner label={loadingLabel} />
          </div>
        }
      >
        <LoadedRemote page={page} props={props} />
      </Suspense>
    </RemoteErrorBoundary>
  );
}
