export function LoadingScreen() {
  return (
    <div className="flex min-h-screen items-center justify-center bg-slate-50" role="status" aria-live="polite">
      <div className="flex flex-col items-center gap-3 text-slate-600">
        <span
          className="size-8 animate-spin rounded-full border-4 border-slate-200 border-t-blue-600"
          aria-hidden="true"
        />
        <p className="text-sm font-medium">Loading</p>
      </div>
    </div>
  );
}
