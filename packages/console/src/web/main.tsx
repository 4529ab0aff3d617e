import { render } from 'preact';
import { Console } from './Console.js';
import './console.css';

const root = document.getElementById('console');
if (root === null) throw new Error('index.html has no #console element');
render(<Console />, root);
