export default function LandingPage() {
  return (
    <section className="mx-auto max-w-2xl py-16 text-center">
      <h1 className="text-3xl font-semibold tracking-tight text-zinc-900">
        Your marketplace, in one dashboard
      </h1>
      <p className="mt-4 text-zinc-600">
        Connect your marketplace seller account to review incoming orders, create SKUs, keep your
        prices right and watch the notifications the platform sends you.
      </p>
      <p className="mt-8 text-sm text-zinc-500">
        Connecting an account arrives with the next release.
      </p>
    </section>
  );
}
