/*
 * React and react-dom on their own, for the home page's boot (src/boot.ts) to evaluate in a task before the app's:
 * evaluated with the app in one go, they made one of the longest tasks of the home page's load on a phone.
 */
import 'react';
import 'react-dom/client';
