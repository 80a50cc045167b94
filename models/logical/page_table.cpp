// SPDX-License-Identifier: Apache-2.0
// PTEs, translation and the LRU page table (LOG-5.2 to LOG-5.4).
#include "models/logical/page_table.h"

#include <algorithm>

namespace lq::logical {
namespace {

constexpr uint64_t kValid = 1u << 0;
constexpr uint64_t kRead = 1u << 1;
constexpr uint64_t kWrite = 1u << 2;
constexpr uint64_t kAtomic = 1u << 3;
constexpr uint64_t kMigrating = 1u << 4;
constexpr uint64_t kReserved = 0xFFE0;  // bits 15:5
constexpr unsigned kHomeShift = 16;
constexpr unsigned kFrameShift = 32;

}  // namespace

uint64_t Pte::Encode() const {
  return (valid ? kValid : 0) | (read ? kRead : 0) | (write ? kWrite : 0) |
         (atomic ? kAtomic : 0) | (migrating ? kMigrating : 0) |
         uint64_t{home} << kHomeShift | uint64_t{frame} << kFrameShift;
}

Result<Pte> Pte::Decode(uint64_t word) {
  if ((word & kReserved) != 0) {
    return Fail("PTE reserved bits set");
  }
  Pte pte;
  pte.valid = (word & kValid) != 0;
  pte.read = (word & kRead) != 0;
  pte.write = (word & kWrite) != 0;
  pte.atomic = (word & kAtomic) != 0;
  pte.migrating = (word & kMigrating) != 0;
  pte.home = static_cast<uint16_t>(word >> kHomeShift);
  pte.frame = static_cast<uint32_t>(word >> kFrameShift);
  return pte;
}

std::optional<const char*> PteProblem(const AddressSpace& space,
                                      const Pte& pte) {
  if (pte.home >= space.endpoints) {
    return "PTE home is not an endpoint (LOG-5.3)";
  }
  if ((uint64_t{pte.frame} + 1) * space.page_bytes > space.direct_bytes) {
    return "PTE frame lies outside the home's direct region (LOG-2.5)";
  }
  return std::nullopt;
}

TranslateResult Translate(const AddressSpace& space, const Pte* pte,
                          AccessKind kind, uint64_t ga) {
  TranslateResult result;
  if (pte == nullptr || !pte->valid) {
    result.cause = FaultCause::kNotMapped;
    return result;
  }
  switch (kind) {
    case AccessKind::kLoad:
      if (!pte->read) {
        result.cause = FaultCause::kNoRead;
        return result;
      }
      break;
    case AccessKind::kStore:
    case AccessKind::kAtomic:
      if (kind == AccessKind::kStore ? !pte->write : !pte->atomic) {
        result.cause = kind == AccessKind::kStore ? FaultCause::kNoWrite
                                                  : FaultCause::kNoAtomic;
        return result;
      }
      if (pte->migrating) {
        result.cause = FaultCause::kMigrating;
        return result;
      }
      break;
  }
  result.translation =
      Translation{pte->home, uint64_t{pte->frame} * space.page_bytes +
                                 ga % space.page_bytes};
  return result;
}

void PageTable::Install(uint64_t page, const Pte& pte) {
  if (const auto found = entries_.find(page); found != entries_.end()) {
    found->second.pte = pte;
    order_.splice(order_.begin(), order_, found->second.position);
    return;
  }
  if (capacity_ == 0) {
    return;
  }
  if (entries_.size() >= capacity_) {
    entries_.erase(order_.back());
    order_.pop_back();
    ++evictions_;
  }
  order_.push_front(page);
  entries_.emplace(page, Entry{pte, order_.begin()});
}

bool PageTable::Remove(uint64_t page) {
  const auto found = entries_.find(page);
  if (found == entries_.end()) {
    return false;
  }
  order_.erase(found->second.position);
  entries_.erase(found);
  return true;
}

size_t PageTable::RemoveRange(uint64_t first, uint64_t count) {
  if (first != 0) {  // the range stops at the last page number
    count = std::min(count, ~uint64_t{0} - first + 1);
  }
  size_t removed = 0;
  if (count <= entries_.size()) {
    for (uint64_t page = first; page - first < count; ++page) {
      removed += Remove(page) ? 1 : 0;
    }
    return removed;
  }
  for (auto it = order_.begin(); it != order_.end();) {
    if (*it - first < count) {
      entries_.erase(*it);
      it = order_.erase(it);
      ++removed;
    } else {
      ++it;
    }
  }
  return removed;
}

const Pte* PageTable::Find(uint64_t page) {
  const auto found = entries_.find(page);
  if (found == entries_.end()) {
    return nullptr;
  }
  order_.splice(order_.begin(), order_, found->second.position);
  return &found->second.pte;
}

}  // namespace lq::logical
