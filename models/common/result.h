// SPDX-License-Identifier: Apache-2.0
// Result<T>: a value or a reason why there is none. Parsers and decoders in
// models/ return it instead of throwing, so malformed input is ordinary data.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <variant>

namespace lq {

// Why an input was rejected, and where in it the problem was found.
struct Error {
  std::string reason;
  size_t offset = 0;  // Byte offset into the input where the problem is.
};

template <typename T>
class Result {
 public:
  Result(T value) : state_(std::move(value)) {}      // NOLINT: implicit.
  Result(Error error) : state_(std::move(error)) {}  // NOLINT: implicit.

  bool ok() const { return std::holds_alternative<T>(state_); }
  explicit operator bool() const { return ok(); }

  // Precondition: ok().
  const T& value() const& { return std::get<T>(state_); }
  T& value() & { return std::get<T>(state_); }
  T&& value() && { return std::get<T>(std::move(state_)); }
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }

  // Precondition: !ok().
  const Error& error() const { return std::get<Error>(state_); }

 private:
  std::variant<T, Error> state_;
};

// Shorthand for building a failed Result.
inline Error Fail(std::string reason, size_t offset = 0) {
  return Error{std::move(reason), offset};
}

}  // namespace lq
