;; The inner loop of a 4-gram signature (quadgrams.ts holds the rest and says what a signature is).
;; `npm run build:signer` compiles this into quadgramSignerWasm.ts; a unit test checks the two agree.
;; In JavaScript the loop ran at a quarter of this speed: every byte went through a double
;; multiply and bounds checks, and hashing was most of the time it took to index a tree.
(module
  ;; Bytes 0-255: the fold table (ASCII letters to lower case). The caller puts the text and
  ;; the part's zeroed signature words where it likes, after it.
  (memory (export "memory") 2)
  ;; Sets the bit of each 4-gram of the bytes [from, to) (at least 4 of them) in the `bits`-bit
  ;; filter whose words start at byte `words`: bit = (uint32(key * 0x9e3779b1) * bits) >> 32,
  ;; the key being the gram's four folded bytes, first byte highest.
  (func (export "sign") (param $from i32) (param $to i32) (param $words i32) (param $bits i32)
    (local $i i32) (local $key i32) (local $bit i32) (local $word i32) (local $range i64)
    (local.set $range (i64.extend_i32_u (local.get $bits)))
    (local.set $key (i32.or (i32.or
      (i32.shl (i32.load8_u (i32.load8_u (local.get $from))) (i32.const 16))
      (i32.shl (i32.load8_u (i32.load8_u offset=1 (local.get $from))) (i32.const 8)))
      (i32.load8_u (i32.load8_u offset=2 (local.get $from)))))
    (local.set $i (i32.add (local.get $from) (i32.const 3)))
    (loop $next
      (local.set $key (i32.or
        (i32.shl (local.get $key) (i32.const 8))
        (i32.load8_u (i32.load8_u (local.get $i)))))
      (local.set $bit (i32.wrap_i64 (i64.shr_u
        (i64.mul (i64.extend_i32_u (i32.mul (local.get $key) (i32.const 0x9e3779b1))) (local.get $range))
        (i64.const 32))))
      (local.set $word (i32.add (local.get $words) (i32.shl (i32.shr_u (local.get $bit) (i32.const 5)) (i32.const 2))))
      (i32.store (local.get $word) (i32.or (i32.load (local.get $word)) (i32.shl (i32.const 1) (local.get $bit))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $next (i32.lt_u (local.get $i) (local.get $to))))))
