import { createRoot } from 'react-dom/client';
import { App } from './App';
import { fromProductLink } from './common/address';
import './style.css';

// The pages put the scroll position back themselves (common/page-memory.ts), once they have drawn what they showed.
history.scrollRestoration = 'manual';
fromProductLink();
createRoot(document.getElementById('root')!).render(<App />);
