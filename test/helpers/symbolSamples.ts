/**
 * One small source file per language the grammars read, each with a documented class (or its
 * language's kind of type) holding a method, a documented function and a constant, and what their
 * outlines must hold: the tests write them into fixture workspaces.
 */
export interface SymbolSample {
	/** The language's name as errors and docs spell it. */
	readonly language: string;
	/** Workspace-relative path, its extension choosing the grammar. */
	readonly file: string;
	readonly text: string;
	/** Dotted names the outline must hold, each with its kind. */
	readonly symbols: Readonly<Record<string, string>>;
	/** The name `symbols://workspace?q=` must find, with its container. */
	readonly search: { readonly name: string; readonly container?: string };
	/** Text a signatures view keeps (a signature, a doc line) and text of a body it drops. */
	readonly kept: readonly string[];
	readonly dropped: readonly string[];
}

export const SYMBOL_SAMPLES: readonly SymbolSample[] = [
	{
		language: 'TypeScript', file: 'src/shapes.ts',
		text: `import { readFileSync } from 'node:fs';

/** A shape with an area. */
export interface Shape {
	area(): number;
	readonly name: string;
}

/**
 * A circle of some radius.
 * More words here.
 */
export class Circle implements Shape {
	readonly name = 'circle';
	constructor(private readonly radius: number) {}

	/** The area of the circle. */
	area(): number {
		const squared = this.radius * this.radius;
		return Math.PI * squared;
	}
}

export type Kind = 'circle' | 'square';

export enum Color { Red, Green }

/** Parses a shape from its text form. */
export function parseShape(text: string): Shape {
	const radius = Number(readFileSync(text, 'utf8'));
	return new Circle(radius);
}

export const describeShape = (shape: Shape): string => {
	return shape.name + ' of area ' + shape.area();
};

const LIMIT = 10;

// ////////////////////////////////
export const DEFAULTS = {
	limit: 10,
	label: 'unnamed',
};
`,
		symbols: { DEFAULTS: 'Constant', Shape: 'Interface', 'Shape.area': 'Method', Circle: 'Class', 'Circle.area': 'Method', 'Circle.constructor': 'Constructor', Kind: 'TypeParameter', Color: 'Enum', parseShape: 'Function', describeShape: 'Function', LIMIT: 'Constant' },
		search: { name: 'area', container: 'Circle' },
		kept: ['export class Circle implements Shape', 'area(): number', '// The area of the circle.', 'export function parseShape(text: string): Shape', 'A circle of some radius.', 'export const DEFAULTS = { …'],
		dropped: ['const squared = this.radius', 'return new Circle(radius)', 'More words here.', "label: 'unnamed'", '////'],
	},
	{
		language: 'TypeScript (TSX)', file: 'src/view.tsx',
		text: `/** Renders a greeting. */
export function Greeting(props: { name: string }) {
	return <div className="greeting">Hello {props.name}</div>;
}

export class Panel {
	render() {
		return <section>{this.title()}</section>;
	}
	title(): string {
		return 'panel';
	}
}
`,
		symbols: { Greeting: 'Function', Panel: 'Class', 'Panel.render': 'Method', 'Panel.title': 'Method' },
		search: { name: 'title', container: 'Panel' },
		kept: ['export function Greeting(props: { name: string })', 'render()'],
		dropped: ['<div className="greeting">', 'return \'panel\''],
	},
	{
		language: 'JavaScript', file: 'lib/queue.js',
		text: `'use strict';

/** A first-in, first-out queue. */
class Queue {
	constructor() {
		this.items = [];
	}

	/** Adds an item at the back. */
	push(item) {
		this.items.push(item);
		return this.items.length;
	}
}

/** Makes an empty queue. */
function makeQueue() {
	return new Queue();
}

const drain = function (queue) {
	while (queue.items.length) { queue.items.shift(); }
};

module.exports = { Queue, makeQueue, drain };
`,
		symbols: { Queue: 'Class', 'Queue.push': 'Method', 'Queue.constructor': 'Constructor', makeQueue: 'Function', drain: 'Function' },
		search: { name: 'push', container: 'Queue' },
		kept: ['class Queue', 'push(item)', 'function makeQueue()', '// Adds an item at the back.'],
		dropped: ['this.items.push(item)', 'return new Queue()'],
	},
	{
		language: 'Python', file: 'pkg/inventory.py',
		text: `import os

MAX_ITEMS = 100


class Inventory(object):
    """Items kept in a store.

    More words here.
    """

    def __init__(self, owner):
        self.owner = owner
        self.items = []

    def add(self, item):
        """Adds one item."""
        if len(self.items) >= MAX_ITEMS:
            raise ValueError("full")
        self.items.append(item)


@staticmethod
def load_inventory(path):
    """Loads an inventory from a file."""
    with open(path) as handle:
        return Inventory(handle.read())
`,
		symbols: { Inventory: 'Class', 'Inventory.__init__': 'Method', 'Inventory.add': 'Method', load_inventory: 'Function', MAX_ITEMS: 'Variable' },
		search: { name: 'add', container: 'Inventory' },
		kept: ['class Inventory(object):', 'def add(self, item):', '# Adds one item.', 'def load_inventory(path):', '# Items kept in a store.'],
		dropped: ['self.items.append(item)', 'raise ValueError', 'More words here.'],
	},
	{
		language: 'Go', file: 'server/store.go',
		text: `package server

import "fmt"

// MaxEntries bounds the store.
const MaxEntries = 10

// Store keeps entries by key.
type Store struct {
	entries map[string]string
}

// Getter reads entries.
type Getter interface {
	Get(key string) (string, bool)
}

// Get returns the entry for key.
func (s *Store) Get(key string) (string, bool) {
	value, ok := s.entries[key]
	return value, ok
}

// NewStore makes an empty store.
func NewStore() *Store {
	fmt.Println("new store")
	return &Store{entries: map[string]string{}}
}
`,
		symbols: { Store: 'Struct', Getter: 'Interface', 'Getter.Get': 'Method', Get: 'Method', NewStore: 'Function', MaxEntries: 'Constant' },
		search: { name: 'NewStore' },
		kept: ['func (s *Store) Get(key string) (string, bool)', '// NewStore makes an empty store.', 'type Store struct'],
		dropped: ['value, ok := s.entries[key]', 'fmt.Println("new store")'],
	},
	{
		language: 'Rust', file: 'src/counter.rs',
		text: `use std::collections::HashMap;

/// Counts words.
pub struct Counter {
    counts: HashMap<String, usize>,
}

/// Something that can be reset.
pub trait Reset {
    fn reset(&mut self);
}

impl Counter {
    /// Makes an empty counter.
    pub fn new() -> Self {
        Counter { counts: HashMap::new() }
    }

    /// Counts one word.
    pub fn add(&mut self, word: &str) -> usize {
        let entry = self.counts.entry(word.to_string()).or_insert(0);
        *entry += 1;
        *entry
    }
}

pub enum Mode { Fast, Slow }

/// The largest count.
pub const LIMIT: usize = 5;

pub fn top(counter: &Counter) -> Option<&String> {
    counter.counts.iter().max_by_key(|(_, n)| **n).map(|(w, _)| w)
}
`,
		symbols: { Counter: 'Struct', Reset: 'Interface', 'Reset.reset': 'Method', 'Counter.new': 'Method', 'Counter.add': 'Method', Mode: 'Enum', LIMIT: 'Constant', top: 'Function' },
		search: { name: 'add', container: 'Counter' },
		kept: ['pub fn add(&mut self, word: &str) -> usize', '// Counts one word.', 'impl Counter'],
		dropped: ['or_insert(0)', 'max_by_key'],
	},
	{
		language: 'Java', file: 'src/main/java/demo/Account.java',
		text: `package demo;

import java.util.List;

/** A bank account. */
public class Account implements Comparable<Account> {
    private long balance;

    /** Opens an account with a balance. */
    public Account(long balance) {
        this.balance = balance;
    }

    /**
     * Adds money.
     * @param amount how much
     */
    public void deposit(long amount) {
        if (amount <= 0) throw new IllegalArgumentException("amount");
        balance += amount;
    }

    @Override
    public int compareTo(Account other) {
        return Long.compare(balance, other.balance);
    }
}

interface Ledger {
    List<Account> accounts();
}

enum Currency { EUR, USD }
`,
		symbols: { Account: 'Class', 'Account.deposit': 'Method', 'Account.Account': 'Constructor', 'Account.balance': 'Field', Ledger: 'Interface', 'Ledger.accounts': 'Method', Currency: 'Enum' },
		search: { name: 'deposit', container: 'Account' },
		kept: ['public void deposit(long amount)', '// Adds money.', 'public class Account implements Comparable<Account>'],
		dropped: ['throw new IllegalArgumentException', 'Long.compare(balance'],
	},
	{
		language: 'C', file: 'native/buffer.c',
		text: `#include <stdlib.h>

#define BUFFER_MAX 64

/* A growable byte buffer. */
struct buffer {
	char *data;
	size_t length;
};

typedef struct buffer buffer_t;

enum mode { MODE_READ, MODE_WRITE };

/* Makes an empty buffer. */
buffer_t *buffer_new(void) {
	buffer_t *b = malloc(sizeof(buffer_t));
	b->length = 0;
	return b;
}

static int buffer_full(const buffer_t *b) {
	return b->length >= BUFFER_MAX;
}
`,
		symbols: { buffer: 'Struct', buffer_t: 'TypeParameter', mode: 'Enum', buffer_new: 'Function', buffer_full: 'Function', BUFFER_MAX: 'Constant' },
		search: { name: 'buffer_new' },
		kept: ['buffer_t *buffer_new(void)', '// Makes an empty buffer.', 'static int buffer_full(const buffer_t *b)'],
		dropped: ['malloc(sizeof(buffer_t))', 'b->length >= BUFFER_MAX'],
	},
	{
		language: 'C++', file: 'native/matrix.cpp',
		text: `#include <vector>

namespace geometry {

/// A dense matrix.
class Matrix {
public:
	Matrix(int rows, int cols);
	/// The number of rows.
	int rows() const { return rows_; }
private:
	int rows_;
};

Matrix::Matrix(int rows, int cols) : rows_(rows) {
	std::vector<int> cells(rows * cols);
}

/// Adds two numbers.
template <typename T>
T add(T a, T b) {
	return a + b;
}

}  // namespace geometry
`,
		symbols: { geometry: 'Namespace', 'geometry.Matrix': 'Class', 'geometry.Matrix.rows': 'Method', 'geometry.add': 'Function' },
		search: { name: 'rows', container: 'Matrix' },
		kept: ['class Matrix', 'int rows() const', '// Adds two numbers.', 'T add(T a, T b)'],
		dropped: ['std::vector<int> cells', 'return a + b;'],
	},
	{
		language: 'C#', file: 'App/Greeter.cs',
		text: `using System;

namespace App
{
    /// <summary>Greets people.</summary>
    public class Greeter : IGreeter
    {
        private readonly string prefix = "Hello";

        public string Name { get; set; }

        /// <summary>Makes a greeting.</summary>
        public string Greet(string who)
        {
            var text = prefix + ", " + who;
            return text;
        }
    }

    public interface IGreeter
    {
        string Greet(string who);
    }

    public enum Tone { Warm, Cold }

    public struct Point { public int X; }
}
`,
		symbols: { App: 'Namespace', 'App.Greeter': 'Class', 'App.Greeter.Greet': 'Method', 'App.Greeter.Name': 'Property', 'App.IGreeter': 'Interface', 'App.Tone': 'Enum', 'App.Point': 'Struct' },
		search: { name: 'Greet', container: 'Greeter' },
		kept: ['public string Greet(string who)', '// Makes a greeting.', 'public class Greeter : IGreeter'],
		dropped: ['var text = prefix', 'return text;'],
	},
	{
		language: 'Ruby', file: 'lib/ledger.rb',
		text: `require 'json'

# Keeps records.
module Books
  # A ledger of entries.
  class Ledger
    LIMIT = 20

    # Adds an entry.
    def add(entry)
      @entries ||= []
      @entries << entry
    end

    def self.open(path)
      new.tap { |l| l.load(path) }
    end
  end
end

def summarize(ledger)
  ledger.to_s
end
`,
		symbols: { Books: 'Module', 'Books.Ledger': 'Class', 'Books.Ledger.add': 'Method', 'Books.Ledger.open': 'Method', summarize: 'Method' },
		search: { name: 'add', container: 'Ledger' },
		kept: ['class Ledger', 'def add(entry)', '# Adds an entry.', 'def self.open(path)'],
		dropped: ['@entries << entry', 'new.tap'],
	},
	{
		language: 'PHP', file: 'src/Cart.php',
		text: `<?php

namespace Shop;

/** Something with a price. */
interface Priced
{
    public function price(): int;
}

/** A shopping cart. */
class Cart implements Priced
{
    private array $items = [];

    /** Adds an item. */
    public function add(string $item): void
    {
        $this->items[] = $item;
    }

    public function price(): int
    {
        return count($this->items) * 10;
    }
}

/** Makes a cart. */
function make_cart(): Cart
{
    return new Cart();
}
`,
		symbols: { Priced: 'Interface', 'Priced.price': 'Method', Cart: 'Class', 'Cart.add': 'Method', 'Cart.price': 'Method', make_cart: 'Function' },
		search: { name: 'make_cart' },
		kept: ['class Cart implements Priced', 'public function add(string $item): void', '// Adds an item.', 'function make_cart(): Cart'],
		dropped: ['$this->items[] = $item', 'count($this->items) * 10'],
	},
];
