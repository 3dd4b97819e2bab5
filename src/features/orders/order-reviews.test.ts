import { describe, expect, it } from 'vitest'
import type { RpcAnswer, RpcClient } from '../../data/backend-client'
import { fetchOrderReviews, submitReview } from './order-reviews'

const client = (answer: RpcAnswer | Error, calls: unknown[] = []): RpcClient => ({
  rpc: (fn, args) => {
    calls.push([fn, args])
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer)
  },
})

const input = {
  orderId: 'o1',
  secret: 's'.repeat(40),
  productId: 'p1',
  rating: 5,
  body: '  Lovely.  ',
  displayName: '   ',
}

describe('order reviews', () => {
  it('sends the order, its secret and the review, blank fields as none', async () => {
    const calls: unknown[] = []
    const review = {
      id: 'r1',
      productId: 'p1',
      rating: 5,
      body: 'Lovely.',
      displayName: null,
      createdAt: '2026-11-30T10:00:00Z',
    }
    const answer = await submitReview(client({ data: review, error: null }, calls), input)
    expect(answer).toEqual({ ok: true, review })
    expect(calls).toEqual([
      [
        'submit_product_review',
        {
          p_order_id: 'o1',
          p_secret: input.secret,
          p_product_id: 'p1',
          p_rating: 5,
          p_body: 'Lovely.',
          p_display_name: null,
        },
      ],
    ])
  })

  it("shows the server's refusal in its words, and a lost connection as such", async () => {
    const refused = {
      data: null,
      error: {
        message: 'You have already reviewed this product for this order',
        code: 'PT409',
        details: '',
        hint: '',
        name: 'PostgrestError',
      },
    } as RpcAnswer
    expect(await submitReview(client(refused), input)).toEqual({
      ok: false,
      message: 'You have already reviewed this product for this order',
    })
    expect(await submitReview(client(new TypeError('Failed to fetch')), input)).toEqual({
      ok: false,
      message: 'Reviews need a connection. Connect to the internet and try again.',
    })
  })

  it("reads back the order's reviews, leaving out anything else", async () => {
    const rows = [
      {
        id: 'r1',
        productId: 'p1',
        rating: 4,
        body: null,
        displayName: 'Noor',
        createdAt: 'x',
        hidden: true,
      },
      { id: 'r2', productId: 'p2', rating: 9, createdAt: 'x' },
    ]
    expect(await fetchOrderReviews(client({ data: rows, error: null }), 'o1', 's')).toEqual([
      rows[0],
    ])
  })
})
