// SPDX-License-Identifier: Apache-2.0
// Page-table entries and each logical unit's page table (docs/spec/log.md
// LOG-5.2 to LOG-5.4): the 64-bit PTE, the checks an entry must pass before
// it is installed, translation of a paged access with its fault causes, and
// the table itself, an LRU cache of translations.
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <optional>
#include <unordered_map>

#include "models/common/result.h"
#include "models/logical/global_address.h"

namespace lq::logical {

// The access kinds of a fault record's ACCESS field (LOG-6.3).
enum class AccessKind : uint8_t { kLoad = 0, kStore = 1, kAtomic = 2 };

// LOG-5.4's fault causes, with their CAUSE codes (LOG-6.3).
enum class FaultCause : uint8_t {
  kNotMapped = 1,
  kNoRead = 2,
  kNoWrite = 3,
  kNoAtomic = 4,
  kMigrating = 5,
};

// LOG-5.3.
struct Pte {
  bool valid = false;
  bool read = false;
  bool write = false;
  bool atomic = false;
  bool migrating = false;
  uint16_t home = 0;
  uint32_t frame = 0;  // home offset = frame x page size

  uint64_t Encode() const;
  // Fails if a reserved bit (15:5) is set.
  static Result<Pte> Decode(uint64_t word);
  bool operator==(const Pte& other) const { return Encode() == other.Encode(); }
};

// LOG-5.3: why `pte` may not be installed (HOME not an endpoint, frame not
// wholly in the direct region), or nothing.
std::optional<const char*> PteProblem(const AddressSpace& space,
                                      const Pte& pte);

// Where a paged access goes.
struct Translation {
  uint16_t home = 0;
  uint64_t home_offset = 0;
};

// LOG-5.4: `pte` (nullptr: no entry) applied to an access of `kind` at
// `ga`: the translation, or the cause of the fault.
struct TranslateResult {
  std::optional<Translation> translation;
  FaultCause cause = FaultCause::kNotMapped;  // when there is none
};
TranslateResult Translate(const AddressSpace& space, const Pte* pte,
                          AccessKind kind, uint64_t ga);

// LOG-5.2: translations by global page number, at most `capacity`; a new
// entry beyond that evicts the least recently used one.
class PageTable {
 public:
  explicit PageTable(size_t capacity) : capacity_(capacity) {}

  void Install(uint64_t page, const Pte& pte);
  // Whether an entry was removed.
  bool Remove(uint64_t page);
  // Removes the entries of pages [first, first + count) (LOG-6.8), in time
  // bounded by the smaller of `count` and size(); returns how many.
  size_t RemoveRange(uint64_t first, uint64_t count);
  // The entry of `page`, which becomes the most recently used.
  const Pte* Find(uint64_t page);
  size_t size() const { return entries_.size(); }
  uint64_t evictions() const { return evictions_; }

 private:
  using Order = std::list<uint64_t>;  // most recently used first
  struct Entry {
    Pte pte;
    Order::iterator position;
  };
  size_t capacity_;
  Order order_;
  std::unordered_map<uint64_t, Entry> entries_;
  uint64_t evictions_ = 0;
};

}  // namespace lq::logical
