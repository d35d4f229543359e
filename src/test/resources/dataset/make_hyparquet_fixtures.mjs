// Writes Parquet fixtures with hyparquet-writer, a JavaScript Parquet implementation that
// shares no code with parquet-java, so the tests check that the reader handles files it did
// not write itself. Run from this folder:
//
//   npm install --no-save hyparquet-writer@0.17.0
//   node make_hyparquet_fixtures.mjs
//
// Inputs are the shipped samples under datasets/; outputs are the two .parquet files here.
import { readFileSync } from 'node:fs'
import { parquetWriteFile } from 'hyparquet-writer'

const root = new URL('../../../../', import.meta.url)
const jsonl = (path) => readFileSync(new URL(path, root), 'utf8')
  .split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l))

// InstructCoder shape: flat string columns, Snappy (the writer's default codec)
const coder = jsonl('datasets/hf/instructcoder_sample.jsonl')
parquetWriteFile({
  filename: 'hyparquet_instructcoder.parquet',
  columnData: ['input', 'instruction', 'output'].map((name) => ({
    name, data: coder.map((r) => r[name]), type: 'STRING',
  })),
})

// ShareGPT shape: conversations as a LIST of {from, value} structs, 3-level layout
const chats = JSON.parse(readFileSync(new URL('datasets/sharegpt/sharegpt_sample.json', root),
  'utf8')).slice(0, 60)
parquetWriteFile({
  filename: 'hyparquet_conversations.parquet',
  columnData: [
    { name: 'id', data: chats.map((c) => c.id) },
    { name: 'conversations', data: chats.map((c) => c.conversations) },
  ],
  schema: [
    { name: 'root', num_children: 2 },
    { name: 'id', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
    { name: 'conversations', repetition_type: 'OPTIONAL', num_children: 1,
      converted_type: 'LIST' },
    { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
    { name: 'element', repetition_type: 'OPTIONAL', num_children: 2 },
    { name: 'from', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
    { name: 'value', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
  ],
})
