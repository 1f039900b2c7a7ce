/**
 * What a browser gets is a production build, whatever NODE_ENV the shell has: Vite keeps a NODE_ENV
 * it finds set, and React then bundles its development build (about twice the size, and slower) with
 * JSX compiled for it. Jest sets NODE_ENV=test for the build of its global set-up, and a developer
 * may start the service with NODE_ENV=development; neither may reach the clients that `npm start`
 * serves afterwards (scripts/build-clients.js keeps a build while its sources are the same).
 * Vite reads NODE_ENV for the build after loading the configuration, so setting it here holds.
 */
export function productionBuild(command: 'build' | 'serve'): void {
  if (command === 'build') process.env.NODE_ENV = 'production';
}
