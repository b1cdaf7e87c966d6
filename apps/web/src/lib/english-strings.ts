// The English strings bundled with the app, imported on demand when the server cannot send the map.
export { en } from '@atelier/contracts';
