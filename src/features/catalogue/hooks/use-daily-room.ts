import { useEffect, useState } from 'react'
import { useHumoData } from '../../../data/data-context'
import type * as AddLimits from '../add-limits'

export type DailyRoomChecks = {
  room: AddLimits.DailyRoom
  addRoom: typeof AddLimits.addRoom
  addRefusal: typeof AddLimits.addRefusal
}

/**
 * Today's room for the product page, live, with its checks; null until the device has answered
 * (the checks load beside the page, not before it: ../daily-room.ts).
 */
export function useDailyRoom(): DailyRoomChecks | null {
  const { db } = useHumoData()
  const [checks, setChecks] = useState<DailyRoomChecks | null>(null)
  useEffect(() => {
    let live = true
    let stop: (() => void) | undefined
    void import('../daily-room').then(({ dailyRoom$, addRoom, addRefusal }) => {
      if (!live) return
      const subscription = dailyRoom$(db).subscribe((room) =>
        setChecks({ room, addRoom, addRefusal }),
      )
      stop = () => subscription.unsubscribe()
    })
    return () => {
      live = false
      stop?.()
    }
  }, [db])
  return checks
}
