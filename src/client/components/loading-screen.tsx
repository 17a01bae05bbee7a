export function LoadingScreen() {
  return (
    <div className="flex min-h-screen items-center justify-center bg-background" role="status" aria-live="polite">
      <div className="flex flex-col items-center gap-3 text-muted-foreground">
        <span
          className="size-7 animate-spin rounded-full border-[3px] border-border border-t-primary"
          aria-hidden="true"
        />
        <p className="text-sm font-medium">Loading</p>
      </div>
    </div>
  );
}
